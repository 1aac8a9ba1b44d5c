/**
 * The walk ahead, through a task's commands: the participant starts the session's walk when the
 * work begins; a command then waits only when no walk has finished in the session, and a later
 * task's first command is wrapped at once with the last finished walk's hidden paths. A scripted
 * walker, a sandbox that only records what it is asked to hide, a terminal that runs nothing.
 */
import { describe, expect, it, vi } from "vitest";
import type { RunningCommand, TerminalHost } from "../../../host/bridge";
import type { SandboxStatus } from "../../../shared/sandbox-status";
import type { CommandScope } from "../../sandbox/command-scope";
import { TaskCommands, type TaskSandbox } from "../../sandbox/task-commands";
import { WorkspaceWalks, type Walker, type WorkspaceFindings } from "../../sandbox/workspace-scan";
import { SandboxInLoop } from "./sandbox";

const ROOT = "/ws";
const guard = { isIgnored: () => false };
const ACTIVE: SandboxStatus = {
  mode: "auto",
  available: true,
  active: true,
  refusesCommands: false,
  technology: "bubblewrap",
  network: "allowList",
  allowedDomains: [],
  writableFolders: [],
  deniedReads: [],
};

function findings(...hiddenReads: string[]): WorkspaceFindings {
  return { hiddenReads, readOnly: [], truncated: false, hiddenWhole: [] };
}

/** One session: its walks (ended by the test), its sandbox, and what every command started with. */
function session(status: SandboxStatus = ACTIVE) {
  const walks: ((found: WorkspaceFindings) => void)[] = [];
  /** What the latest walk would wait for before its next folder. */
  let paused: () => Promise<void> | undefined = () => undefined;
  // The roots do not exist: the listing of their entries finds nothing to add.
  const walker: Walker = (_roots, _guard, pause) => {
    paused = pause;
    return new Promise<WorkspaceFindings>((resolve) => void walks.push(resolve));
  };
  const workspace = new WorkspaceWalks([ROOT], guard, walker, () => 0);
  const wrapped: CommandScope[] = [];
  const sandbox: TaskSandbox = {
    status,
    walksOf: () => workspace,
    makeTaskTemp: () => "/tmp/task",
    wrap: (command, scope) => {
      wrapped.push(scope);
      return Promise.resolve({ line: command, blocked: () => undefined, hostsReached: () => [], release: () => {} });
    },
  };
  const started: string[] = [];
  /** Set: commands end only when the test says. */
  let held: (() => void)[] | undefined;
  const terminal: TerminalHost = {
    run: (line): RunningCommand => {
      started.push(line);
      const exit = { exitCode: 0, signal: null, stoppedBy: null } as const;
      const completion = held ? new Promise<typeof exit>((resolve) => held?.push(() => resolve(exit))) : Promise.resolve(exit);
      return { onOutput: () => {}, completion, kill: () => {} };
    },
  };
  const commandsEnd = () => (held = []);
  return { walks, wrapped, started, paused: () => paused(), commandsEnd, ending: () => held ?? [], task: () => new TaskCommands(terminal, sandbox, [ROOT], guard) };
}

function run(commands: TaskCommands, line: string) {
  return commands.run(line, { cwd: ROOT, signal: new AbortController().signal }).completion;
}

async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

describe("the sandbox participant", () => {
  it("starts the walk of the workspace when the task begins, before any command", async () => {
    const s = session();
    const commands = s.task();
    expect(s.walks).toHaveLength(0);
    expect(await new SandboxInLoop(commands).beginning()).toBeUndefined();
    expect(s.walks).toHaveLength(1);
    // A resumed task's second beginning walks no more.
    commands.walkAhead();
    expect(s.walks).toHaveLength(1);
  });

  it("walks nothing when commands run unconfined", async () => {
    const s = session({ ...ACTIVE, mode: "off", active: false });
    await new SandboxInLoop(s.task()).beginning();
    expect(s.walks).toHaveLength(0);
  });

  it("lets the session's first command wait for the walk its task started, and start none of its own", async () => {
    const s = session();
    const commands = s.task();
    await new SandboxInLoop(commands).beginning();
    const done = run(commands, "ls");
    await flush();
    expect(s.started).toEqual([]);
    expect(s.walks).toHaveLength(1);
    s.walks[0]?.(findings("/ws/.env"));
    await done;
    expect(s.started).toEqual(["ls"]);
    expect(s.wrapped[0]?.hiddenReads).toEqual(["/ws/.env"]);
  });

  it("runs a later task's first command at once with the last finished walk, and the next with the task's own once it ended", async () => {
    const s = session();
    const first = s.task();
    await new SandboxInLoop(first).beginning();
    s.walks[0]?.(findings("/ws/.env"));
    await run(first, "true");
    first.dispose();

    const second = s.task();
    await new SandboxInLoop(second).beginning();
    expect(s.walks).toHaveLength(2);
    await run(second, "cat notes.md"); // ends while the task's walk still runs
    expect(s.started).toEqual(["true", "cat notes.md"]);
    expect(s.wrapped[1]?.hiddenReads).toEqual(["/ws/.env"]);
    expect(s.walks).toHaveLength(2);

    s.walks[1]?.(findings("/ws/.env", "/ws/keys/new.pem"));
    await flush();
    await run(second, "ls keys");
    expect(s.wrapped[2]?.hiddenReads).toEqual(["/ws/.env", "/ws/keys/new.pem"]);
  });

  it("starts the task's walk at its first command when it began without one (the sandbox came on since)", async () => {
    const s = session();
    const first = s.task();
    const done = run(first, "true");
    s.walks[0]?.(findings("/ws/.env"));
    await done;
    const later = s.task(); // never walked ahead
    await run(later, "true");
    expect(s.walks).toHaveLength(2);
    expect(s.wrapped.at(-1)?.hiddenReads).toEqual(["/ws/.env"]);
  });

  it("pauses the task's walk while a command on the last finished one runs, and lets it go on once the command ended", async () => {
    const s = session();
    const first = s.task();
    await new SandboxInLoop(first).beginning();
    s.walks[0]?.(findings());
    await run(first, "true");
    const second = s.task();
    await new SandboxInLoop(second).beginning();
    s.commandsEnd();
    const done = run(second, "sleep 1");
    await vi.waitFor(() => expect(s.started.at(-1)).toBe("sleep 1"));
    expect(s.paused()).toBeInstanceOf(Promise);
    s.ending()[0]?.();
    await done;
    expect(s.paused()).toBeUndefined();
  });
});
