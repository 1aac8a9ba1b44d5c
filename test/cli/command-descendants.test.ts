/**
 * A command that times out ends with everything it started, what left its process group too
 * (`setsid`), when it runs outside the OS sandbox (whose PID namespace ends its own). Through the
 * CLI bundle in YOLO with `--sandbox off`.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { gone, withArgument } from "../support/marked-processes";
import { requestText, startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;

beforeAll(async () => {
  cli = await startCliHarness();
});

afterAll(async () => {
  await cli?.close();
});

it("ends a timed-out command's setsid children with it, outside the sandbox", async () => {
  const workspace = await cli.workspace();
  const line = "setsid sleep 30.4741 >/dev/null 2>&1 & sh -c 'setsid sleep 30.4742 >/dev/null 2>&1 &'; echo started; sleep 30";
  await cli.script([
    { text: `<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n<timeout>2</timeout>\n</execute_command>` },
    { text: "<attempt_completion>\n<result>Stopped it.</result>\n</attempt_completion>" },
  ]);
  const run = await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "off", "--no-storage", "Run it"], { killAfterMs: 30_000 });
  try {
    expect(run.code, run.stderr).toBe(0);
    const requests = await cli.requests();
    expect(requestText(requests.at(-1)!)).toContain("started");
    expect(await gone("30.474", 3_000)).toEqual([]);
  } finally {
    for (const pid of withArgument(["30.4741", "30.4742"])) process.kill(pid, "SIGKILL");
  }
});
