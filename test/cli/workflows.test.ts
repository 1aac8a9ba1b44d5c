/**
 * Workflows through the bundled CLI: the task text `/deploy …` runs the workspace's workflow (its
 * text in a <workflow> block, the person's words after it), a global one in the CLI's data folder
 * ($XDG_DATA_HOME/tandem/workflows/) works too, and an unknown command goes as typed.
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

/** The first user message's text, as sent. */
function firstUserText(request: RecordedRequest | undefined): string {
  const first = (request?.body.messages as { role: string; content: string | { text?: string }[] }[] | undefined)?.find((m) => m.role === "user");
  if (!first) return "";
  return typeof first.content === "string" ? first.content : first.content.map((b) => b.text ?? "").join("\n");
}

async function run(args: string[], env: Record<string, string>) {
  const before = (await cli.requests()).length;
  await cli.script([done]);
  const result = await cli.run(args, { env, killAfterMs: 40_000 });
  await cli.dropScript();
  return { ...result, requests: (await cli.requests()).slice(before) };
}

describe("tandem with workflows", { timeout: 60_000 }, () => {
  it("runs a workspace workflow and a global one from the task text; an unknown command goes as typed", async () => {
    const ws = await cli.workspace();
    const data = join(ws, "..", "data-workflows");
    await mkdir(join(data, "tandem", "workflows"), { recursive: true });
    await writeFile(join(data, "tandem", "workflows", "standup.md"), "GLOBAL-STANDUP-STEPS");
    await mkdir(join(ws, ".clinerules", "workflows"), { recursive: true });
    await writeFile(join(ws, ".clinerules", "workflows", "deploy.md"), "1. DEPLOY-CLI-STEP\n");
    const env = { XDG_DATA_HOME: data };

    const deploy = await run(["--cwd", ws, "/deploy do it"], env);
    expect(deploy.code, deploy.stderr).toBe(0);
    expect(firstUserText(deploy.requests[0])).toContain('<task>\n<workflow name="deploy">\n1. DEPLOY-CLI-STEP\n</workflow>\n\ndo it\n</task>');

    const standup = await run(["--cwd", ws, "/standup"], env);
    expect(standup.code, standup.stderr).toBe(0);
    expect(firstUserText(standup.requests[0])).toContain('<workflow name="standup">\nGLOBAL-STANDUP-STEPS\n</workflow>');

    const unknown = await run(["--cwd", ws, "/nope do it"], env);
    expect(unknown.code, unknown.stderr).toBe(0);
    expect(firstUserText(unknown.requests[0])).toContain("<task>\n/nope do it\n</task>");
  });
});
