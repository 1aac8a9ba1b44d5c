/**
 * Rules through the bundled CLI: the workspace's rules files, the global folder in the CLI's data
 * folder ($XDG_DATA_HOME/tandem/rules/) and --custom-instructions reach the request's system
 * prompt; an ignored rules file is said and left out; --no-rules reads no files.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../support/script";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const done = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };
const system = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.system ?? "");

async function run(args: string[], env: Record<string, string>) {
  const before = (await cli.requests()).length;
  await cli.script([done]);
  const result = await cli.run(args, { env, killAfterMs: 40_000 });
  await cli.dropScript();
  return { ...result, requests: (await cli.requests()).slice(before) };
}

describe("tandem with rules", { timeout: 60_000 }, () => {
  it("loads the workspace's and the global rules and the custom instructions; --no-rules reads no files", async () => {
    const ws = await cli.workspace();
    const data = join(ws, "..", "data-rules");
    await mkdir(join(data, "tandem", "rules"), { recursive: true });
    await writeFile(join(data, "tandem", "rules", "house.md"), "GLOBAL-CLI-RULE");
    await mkdir(join(ws, ".clinerules"));
    await writeFile(join(ws, ".clinerules", "style.md"), "CLINE-CLI-RULE");
    await writeFile(join(ws, ".clinerules", "hidden.md"), "HIDDEN-CLI-RULE");
    await writeFile(join(ws, ".tandemignore"), ".clinerules/hidden.md\n");
    await writeFile(join(ws, "AGENTS.md"), "AGENTS-CLI-RULE");
    const env = { XDG_DATA_HOME: data };

    const r = await run(["--cwd", ws, "--custom-instructions", "CUSTOM-CLI-TEXT", "Go"], env);
    expect(r.code, r.stderr).toBe(0);
    const prompt = system(r.requests[0]);
    for (const marker of ["GLOBAL-CLI-RULE", "CLINE-CLI-RULE", "AGENTS-CLI-RULE", "CUSTOM-CLI-TEXT", "global/house.md", ".clinerules/style.md"]) expect(prompt).toContain(marker);
    expect(prompt).not.toContain("HIDDEN-CLI-RULE");
    expect(r.stdout + r.stderr).toContain(".clinerules/hidden.md is ignored");

    const bare = await run(["--cwd", ws, "--no-rules", "--custom-instructions", "CUSTOM-CLI-TEXT", "Go"], env);
    expect(bare.code, bare.stderr).toBe(0);
    const barePrompt = system(bare.requests[0]);
    expect(barePrompt).toContain("CUSTOM-CLI-TEXT");
    for (const marker of ["GLOBAL-CLI-RULE", "CLINE-CLI-RULE", "AGENTS-CLI-RULE"]) expect(barePrompt).not.toContain(marker);
  });
});
