/**
 * Plan and Act through the bundled CLI: `--plan` runs the task in Plan mode, prints the plan and
 * stops with exit 0, having written nothing; `--resume … --act` carries the saved plan out; and
 * `--plan --act` is refused as contradictory.
 */
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurn } from "../support/script";
import { requestText, startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const call = (tool: string, params: Record<string, string>): ScriptTurn => ({ text: `<${tool}>\n${Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join("\n")}\n</${tool}>` });
const writeJs = call("write_to_file", { path: "app.js", content: "\nconsole.log(1);\n" });
const PLAN = "1. Create app.js\n2. Log a greeting";

async function run(args: string[], turns: ScriptTurn[]) {
  const before = (await cli.requests()).length;
  await cli.script(turns);
  const result = await cli.run(args, { killAfterMs: 40_000 });
  await cli.dropScript();
  return { ...result, requests: (await cli.requests()).slice(before) };
}

describe("tandem --plan / --act", { timeout: 90_000 }, () => {
  it("--plan prints the plan and exits 0 without writing; --resume --act then carries it out", async () => {
    const ws = await cli.workspace();
    // No --yolo, nobody at a terminal: the edit is refused by the mode, before any approval could be asked.
    const planned = await run(["--cwd", ws, "--plan", "Make app.js"], [writeJs, call("plan_mode_respond", { response: PLAN })]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.requests).toHaveLength(2);
    expect(planned.stdout).toContain(`plan:\n${PLAN}`);
    expect(requestText(planned.requests[1]!)).toContain("write_to_file is not available in Plan mode");
    expect(JSON.stringify(planned.requests[0]?.body.system)).toContain("MODE: PLAN");
    expect(await access(join(ws, "app.js")).then(() => true, () => false)).toBe(false);
    expect(planned.stderr).toMatch(/To carry out the plan: tandem --resume \S+ --act/);

    const acted = await run(["--cwd", ws, "--yolo", "--resume", "last", "--act", "Go ahead"], [writeJs, call("attempt_completion", { result: "Done." })]);
    expect(acted.code, acted.stderr).toBe(0);
    expect(await readFile(join(ws, "app.js"), "utf8")).toBe("console.log(1);\n");
    const first = requestText(acted.requests[0]!);
    expect(first).toContain("[The person switched to Act mode.");
    expect(first).toContain("Go ahead");
    expect(first).toContain("1. Create app.js");
    // Told as what it is: the plan was approved and Act begins, not a completed task reopened.
    expect(first).toContain("The person approved the plan.");
    expect(first).toContain("[PLAN APPROVED]");
    expect(first).not.toContain("accepted the result");
    expect(first).not.toContain("TASK REOPENED");
    expect(JSON.stringify(acted.requests[0]?.body.system)).toContain("MODE: ACT");
  });

  it("--plan with --act is a usage error", async () => {
    const ws = await cli.workspace();
    const result = await run(["--cwd", ws, "--plan", "--act", "Make app.js"], []);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("--plan and --act contradict each other: give one.");
    expect(result.requests).toHaveLength(0);
  });
});
