/**
 * WorkspaceWalks, the session's walks of one workspace, with a scripted walker and clock: a task's
 * walk starts when it begins, a command takes the last finished walk without starting one, only
 * the session's first waits, and a newer walk's findings always replace an older one's.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { readdir } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PathGuard } from "../ignore/path-guard";
import { scanWorkspace, WorkspaceWalks, type Walker, type WorkspaceFindings } from "./workspace-scan";

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "tandem-walks-")));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** `.env*` files and `private/` are hidden, as the ignore guard would. */
const guard: PathGuard = { isIgnored: (p) => path.basename(p).startsWith(".env") || p.endsWith(`${path.sep}private${path.sep}`) };

function findings(...hiddenReads: string[]): WorkspaceFindings {
  return { hiddenReads, readOnly: [], truncated: false, hiddenWhole: [] };
}

/** A walker whose walks end when the test says; `paused` is what each walk would wait for before its next folder. */
function scriptedWalker() {
  const walks: { resolve: (found: WorkspaceFindings) => void; reject: (error: Error) => void; paused: () => Promise<void> | undefined }[] = [];
  const walker: Walker = (_roots, _guard, paused) =>
    new Promise<WorkspaceFindings>((resolve, reject) => {
      walks.push({ resolve, reject, paused });
    });
  return { walker, walks };
}

/** Lets the queued callbacks run (no timers). */
async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** Whether `promise` has settled once the queued callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await flush();
  return done;
}

describe("WorkspaceWalks", () => {
  it("walks when a task begins; the session's first command waits for that walk and starts none of its own", async () => {
    const { walker, walks } = scriptedWalker();
    const session = new WorkspaceWalks([root], guard, walker);
    session.start();
    expect(walks).toHaveLength(1);
    const first = session.current();
    expect(walks).toHaveLength(1);
    expect(await settled(first)).toBe(false);
    walks[0]?.resolve(findings(path.join(root, ".env")));
    expect(await first).toEqual(findings(path.join(root, ".env")));
  });

  it("gives a later task's first command the last finished walk at once, while the task's own walk runs", async () => {
    const { walker, walks } = scriptedWalker();
    const session = new WorkspaceWalks([root], guard, walker);
    session.start();
    walks[0]?.resolve(findings(path.join(root, "src/.env")));
    await session.current();
    session.start(); // the next task begins
    expect(walks).toHaveLength(2);
    const first = session.current();
    // Had it waited for the running walk, it would get that walk's findings.
    walks[1]?.resolve(findings(path.join(root, "later/.env")));
    expect(walks).toHaveLength(2);
    expect((await first).hiddenReads).toEqual([path.join(root, "src/.env")]);
  });

  it("once the new walk ends, commands get its findings, never the older walk's", async () => {
    const { walker, walks } = scriptedWalker();
    const session = new WorkspaceWalks([root], guard, walker);
    session.start();
    walks[0]?.resolve(findings(path.join(root, "old/.env")));
    await session.current();
    session.start();
    walks[1]?.resolve(findings(path.join(root, "old/.env"), path.join(root, "new/.env")));
    await flush();
    expect((await session.current()).hiddenReads).toEqual([path.join(root, "old/.env"), path.join(root, "new/.env")]);
    // A task beginning while a walk runs shares it: no older walk can end after a newer one.
    session.start();
    session.start();
    expect(walks).toHaveLength(3);
    expect((await session.current()).hiddenReads).toContain(path.join(root, "new/.env"));
  });

  it("while the new walk runs, also hides what the guard hides among the roots' own entries now", async () => {
    const { walker, walks } = scriptedWalker();
    const session = new WorkspaceWalks([root], guard, walker);
    const before = findings(path.join(root, "src/.env"));
    session.start();
    walks[0]?.resolve(before);
    expect(await session.current()).toBe(before); // no walk running: the finished one as it is
    // Made between two tasks, after the last walk.
    await writeFile(path.join(root, ".env.local"), "SECRET\n");
    await mkdir(path.join(root, "private"));
    await writeFile(path.join(root, "README.md"), "# ok\n");
    session.start();
    const found = await session.current();
    expect([...found.hiddenReads].sort()).toEqual([path.join(root, ".env.local"), path.join(root, "private"), path.join(root, "src/.env")].sort());
    expect(walks).toHaveLength(2);
  });

  it("keeps no failed walk: the last finished one stays, and with none the next command walks again", async () => {
    const { walker, walks } = scriptedWalker();
    const session = new WorkspaceWalks([root], guard, walker);
    const first = session.current();
    walks[0]?.reject(new Error("EACCES"));
    await expect(first).rejects.toThrow("EACCES");
    const second = session.current();
    expect(walks).toHaveLength(2);
    walks[1]?.resolve(findings(path.join(root, ".env")));
    await second;
    session.start();
    walks[2]?.reject(new Error("EIO"));
    await flush();
    expect((await session.current()).hiddenReads).toEqual([path.join(root, ".env")]);
  });

  it("after a command, walks again in the background at most every 5 s", async () => {
    const { walker, walks } = scriptedWalker();
    let now = 1_000_000;
    const session = new WorkspaceWalks([root], guard, walker, () => now);
    session.start();
    walks[0]?.resolve(findings());
    await session.current();
    now += 4_000;
    session.refresh();
    expect(walks).toHaveLength(1);
    now += 1_000;
    session.refresh();
    expect(walks).toHaveLength(2);
    now += 10_000;
    session.refresh(); // one at a time
    expect(walks).toHaveLength(2);
  });

  it("pauses the running walk while a command that got its findings starts, until it is released", async () => {
    const { walker, walks } = scriptedWalker();
    const session = new WorkspaceWalks([root], guard, walker);
    session.start();
    walks[0]?.resolve(findings());
    await session.current();
    session.start();
    expect(walks[1]?.paused()).toBeUndefined();
    const first = session.hold();
    const second = session.hold(); // two commands at once: the walk goes on after both
    expect(walks[1]?.paused()).toBeInstanceOf(Promise);
    first();
    first(); // releasing twice counts once
    expect(walks[1]?.paused()).toBeInstanceOf(Promise);
    const resumed = walks[1]?.paused() as Promise<void>;
    second();
    await resumed;
    expect(walks[1]?.paused()).toBeUndefined();
  });

  it("holds a walk no longer than 250 ms, however long the command runs", () => {
    vi.useFakeTimers();
    try {
      const { walker, walks } = scriptedWalker();
      const session = new WorkspaceWalks([root], guard, walker);
      session.start();
      session.hold();
      expect(walks[0]?.paused()).toBeInstanceOf(Promise);
      vi.advanceTimersByTime(249);
      expect(walks[0]?.paused()).toBeInstanceOf(Promise);
      vi.advanceTimersByTime(1);
      expect(walks[0]?.paused()).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("scanWorkspace", () => {
  it("reads no folder while paused, and finds the same once resumed", async () => {
    await mkdir(path.join(root, "src"));
    await writeFile(path.join(root, "src/.env"), "SECRET\n");
    const judged: string[] = [];
    const watched: PathGuard = { isIgnored: (p) => (judged.push(p), guard.isIgnored(p)) };
    let resume = () => {};
    const gate = new Promise<void>((resolve) => (resume = resolve));
    let open = false;
    const walk = scanWorkspace([root], watched, 1000, () => (open ? undefined : gate));
    for (let i = 0; i < 5; i++) await readdir(root); // time enough for a walk that did not wait
    expect(judged).toEqual([]);
    open = true;
    resume();
    expect((await walk).hiddenReads).toEqual([path.join(root, "src/.env")]);
  });
});
