/**
 * The walk of the workspace through whole tasks of one session (the real Controller and its
 * assembly, the real sandbox, the scripted model): each task starts its walk when it begins,
 * before its first request, and what the walks hide stays hidden in the next task, a secret made
 * between the tasks included. The walks are kept per guard and workspace (CommandSandbox.walksOf).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CommandSandbox } from "../../src/core/sandbox/command-sandbox";
import { WorkspaceWalks } from "../../src/core/sandbox/workspace-scan";
import { DEFAULT_SANDBOX_SETTINGS } from "../../src/shared/settings";
import { approveAll, startHarness, type Harness } from "../support/task-harness";

let dir: string;
let sandbox: CommandSandbox;
let harness: Harness | undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tandem-walks-"));
  await mkdir(path.join(dir, "home"));
  sandbox = CommandSandbox.create({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on" }, { home: path.join(dir, "home") });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await harness?.dispose();
  harness = undefined;
});

afterAll(async () => {
  await sandbox?.dispose();
  await rm(dir, { recursive: true, force: true });
});

const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` });
const done = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };

describe("the workspace walk across a session's tasks", () => {
  it("starts when each task begins, before its first request, and what it hides stays hidden in the next task", async () => {
    expect((await sandbox.ready()).active).toBe(true);
    const starts = vi.spyOn(WorkspaceWalks.prototype, "start");
    /** How many times a walk had been asked for when each request arrived. */
    const startsAtRequest: number[] = [];
    harness = await startHarness({
      provider: "anthropic",
      answer: approveAll,
      sandbox,
      respond: () => void startsAtRequest.push(starts.mock.calls.length),
      turns: [command("cat .env private/notes.md; echo END-1"), done, command("cat .env .env.local private/notes.md; echo END-2"), done],
    });
    const ws = harness.workspace;
    await writeFile(path.join(ws, ".env"), "ENV-MARKER\n");
    await writeFile(path.join(ws, ".tandemignore"), "private/\n");
    await mkdir(path.join(ws, "private"));
    await writeFile(path.join(ws, "private/notes.md"), "PRIVATE-MARKER\n");
    const toolResult = (n: number) => JSON.stringify(harness?.server.requests[n]?.body.messages ?? []);

    expect(await harness.run("Look around")).toBe("completed");
    expect(startsAtRequest[0]).toBeGreaterThanOrEqual(1);
    expect(toolResult(1)).toContain("END-1");
    expect(toolResult(1)).not.toMatch(/ENV-MARKER|PRIVATE-MARKER/);

    // Made between the tasks, after the first task's walk.
    await writeFile(path.join(ws, ".env.local"), "NEW-MARKER\n");
    expect(await harness.run("Look again")).toBe("completed");
    expect(startsAtRequest[2]).toBeGreaterThan(startsAtRequest[1] ?? Infinity);
    expect(toolResult(3)).toContain("END-2");
    expect(toolResult(3)).not.toMatch(/ENV-MARKER|PRIVATE-MARKER|NEW-MARKER/);
  });

  it("keeps one set of walks per guard and workspace", () => {
    const guard = { isIgnored: () => false };
    const other = { isIgnored: () => true };
    expect(sandbox.walksOf(["/ws"], guard)).toBe(sandbox.walksOf(["/ws"], guard));
    expect(sandbox.walksOf(["/ws"], other)).not.toBe(sandbox.walksOf(["/ws"], guard));
    expect(sandbox.walksOf(["/other"], guard)).not.toBe(sandbox.walksOf(["/ws"], guard));
  });
});
