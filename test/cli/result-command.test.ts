/**
 * attempt_completion's suggested command (a demo of the result) in the CLI without a terminal:
 * skipped without a word when nobody may approve it, and run but never waited for in YOLO, so a
 * demo that never ends (`npm start`) cannot hang the run.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => {
  cli = await startCliHarness();
});
afterAll(async () => {
  await cli?.close();
});

const resultWith = (command: string) => ({
  text: `<attempt_completion>\n<result>Built it.</result>\n<command>${command}</command>\n</attempt_completion>`,
});

describe("the result's command in the CLI without a terminal", { timeout: 60_000 }, () => {
  it("is skipped without feedback when nobody may approve it: the task completes with exit 0", async () => {
    const workspace = await cli.workspace();
    const before = (await cli.requests()).length;
    await cli.script([resultWith("touch demo-ran")]);
    const result = await cli.run(["--cwd", workspace, "Build it"], { killAfterMs: 20_000 });
    expect(result.code).toBe(0);
    expect(existsSync(join(workspace, "demo-ran"))).toBe(false);
    // No reply went back to the model: one request, the task ended at the result.
    expect((await cli.requests()).length - before).toBe(1);
  });

  it("runs in YOLO, and a demo that never ends goes on in the background while the task completes", async () => {
    const workspace = await cli.workspace();
    await cli.script([resultWith("touch demo-ran && sleep 600")]);
    const result = await cli.run(["--yolo", "--cwd", workspace, "Build it"], { killAfterMs: 30_000 });
    expect(result.code).toBe(0);
    expect(existsSync(join(workspace, "demo-ran"))).toBe(true);
  });
});
