/**
 * @-mentions through the bundled CLI: the task text's mentions are expanded by the same core path
 * as the panel's (Task.startTask), so the first request carries the mentioned file with its path,
 * while a mentioned secret file stays out.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const done = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };

describe("tandem with @-mentions", { timeout: 60_000 }, () => {
  it("expands @/src/a.ts in the task text into the first request; a secret file is refused", async () => {
    const ws = await cli.workspace();
    await mkdir(join(ws, "src"));
    await writeFile(join(ws, "src", "a.ts"), "export const MENTIONED_IN_CLI = 42;\n");
    await writeFile(join(ws, ".env"), "TOKEN=CLI-SECRET\n");
    const before = (await cli.requests()).length;
    await cli.script([done]);
    const result = await cli.run(["--cwd", ws, "look at @/src/a.ts and @/.env"], { killAfterMs: 40_000 });
    await cli.dropScript();
    expect(result.code, result.stderr).toBe(0);
    const first = (await cli.requests())[before];
    const messages = first?.body.messages as { role: string; content: { type: string; text?: string }[] }[];
    const text = messages[0]!.content.map((b) => b.text ?? "").join("\n");
    expect(text).toContain("<task>\nlook at @/src/a.ts and @/.env\n</task>");
    expect(text).toMatch(/<file_content path="src\/a\.ts">\n1\|export const MENTIONED_IN_CLI = 42;\n<\/file_content>/);
    expect(text).toMatch(/<file_content path="\.env">\n\[Not included: \.env looks like a secret file/);
    expect(JSON.stringify(first?.body)).not.toContain("CLI-SECRET");
  });
});
