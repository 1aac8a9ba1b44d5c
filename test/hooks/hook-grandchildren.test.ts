/**
 * Security issue 29: a hook's `setsid` child holds the hook's stdout open and is out of the
 * hook's process group, so the group's kill misses it and the pipe never closes. The hook's run
 * must still end (when the hook exits, and at its timeout) and the child must die with it.
 *
 * Through the CLI bundle for a hook that exits; through the task harness for the timeout, since
 * the CLI has no flag for the hook timeout (30 s there).
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HookRunInfo } from "../../src/shared/messages";
import { requestText, startCliHarness, type CliHarness } from "../cli/cli-harness";
import { approveAll, startHarness, type Harness } from "../support/task-harness";
import { gone, withArgument } from "../support/marked-processes";

let cli: CliHarness;
let harness: Harness | undefined;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const markers: string[] = [];
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  for (const pid of withArgument(markers.splice(0))) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
});

const done = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };

/** A marker argument no other process has: `sleep 300.<unique>` sleeps 300 s all the same. */
function newMarker(): string {
  const marker = `300.${process.pid}${Date.now() % 100_000}`;
  markers.push(marker);
  return marker;
}

/** A TaskStart hook that starts `sleep <marker>` with setsid, on the hook's stdout, then `rest`. */
async function escapingHook(workspace: string, marker: string, rest: string): Promise<void> {
  const dir = join(workspace, ".tandem", "hooks");
  await mkdir(dir, { recursive: true });
  const file = join(dir, "TaskStart");
  await writeFile(file, `#!/bin/sh\ncat > /dev/null\nsetsid sh -c 'sleep ${marker}' &\n${rest}\n`);
  await chmod(file, 0o755);
}

describe.skipIf(process.platform !== "linux")("a hook's setsid grandchild holding its stdout", { timeout: 90_000 }, () => {
  it("through the CLI: the hook exits, its output is in, the run ends, and the grandchild is killed", async () => {
    const marker = newMarker();
    const ws = await cli.workspace();
    await escapingHook(ws, marker, `echo '{"contextModification":"HOOK-LEFT-A-SETSID-CHILD"}'`);
    const before = (await cli.requests()).length;
    await cli.script([done]);
    const started = Date.now();
    const run = await cli.run(["--cwd", ws, "--yolo", "--trust-workspace", "--sandbox", "off", "Nothing to do"], { killAfterMs: 45_000 });
    const took = Date.now() - started;
    await cli.dropScript();
    expect(run.code, run.stderr).toBe(0);
    expect(took).toBeLessThan(30_000);
    expect(run.stdout).toMatch(/\[hook\] TaskStart hook .*\.tandem\/hooks\/TaskStart ran/);
    expect(requestText((await cli.requests())[before]!)).toContain("HOOK-LEFT-A-SETSID-CHILD");
    expect(await gone(marker, 3000)).toEqual([]);
  });

  it("past the hook's timeout: the hook is reported as timed out, the task goes on, and the grandchild is killed", async () => {
    const marker = newMarker();
    harness = await startHarness({ provider: "anthropic", answer: approveAll, turns: [done], hooks: { trustWorkspace: () => true }, settings: { hookTimeoutSeconds: 1 } });
    await escapingHook(harness.workspace, marker, `sleep 120\necho '{"contextModification":"TOO-LATE"}'`);
    const started = Date.now();
    expect(await harness.run("go")).toBe("completed");
    expect(Date.now() - started).toBeLessThan(30_000);
    const rows = harness.messages.filter((m) => m.type === "say" && m.say === "hook").map((m) => m.hook as HookRunInfo);
    expect(rows[0]).toMatchObject({ point: "TaskStart", outcome: "timeout" });
    expect(requestText(harness.server.requests[0]!)).not.toContain("TOO-LATE");
    expect(await gone(marker, 3000)).toEqual([]);
  });
});
