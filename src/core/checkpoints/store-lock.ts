/**
 * One operation at a time on a shadow repository, across processes: two tasks, two windows and
 * the CLI may all use the same workspace's store. The lock is a file created exclusively (O_EXCL)
 * holding the owner's pid, host and a random token; the owner touches it every few seconds.
 *
 * A lock is stale when its owner is gone: a pid on this host that no longer runs (kill -9, a
 * crash), or a file nobody touched for STALE_MS (an owner that hangs, or a pid since reused by
 * another program). Taking over a stale lock renames it aside first and checks the token of what
 * it moved: if another waiter was quicker and the moved file is already its fresh lock, it is
 * put back (link fails rather than overwrite) and the wait goes on.
 */
import { randomBytes } from "node:crypto";
import { link, mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import * as path from "node:path";
import { parseTempName, tempPathFor } from "../storage/temp-name";
import { isProcessRunning } from "../util/process-running";

const TOUCH_EVERY_MS = 5_000;
const STALE_MS = 60_000;
const POLL_MS = 25;
const DEFAULT_TIMEOUT_MS = 120_000;

interface LockContent {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

export interface HeldStoreLock {
  release(): Promise<void>;
}

export async function acquireStoreLock(file: string, options: { timeoutMs?: number } = {}): Promise<HeldStoreLock> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const mine: LockContent = { pid: process.pid, host: hostname(), token: randomBytes(8).toString("hex") };
  await mkdir(path.dirname(file), { recursive: true });
  for (;;) {
    if (await tryCreate(file, mine)) {
      await removeLeftoverAttempts(file);
      return held(file, mine);
    }
    const owner = await readOwner(file);
    if (owner === undefined) continue; // released between our attempt and our look
    if (owner.stale) await takeOver(file, owner.content);
    else if (Date.now() > deadline) {
      throw new Error(`the checkpoint store is busy: process ${owner.content?.pid ?? "?"} has held its lock (${file}) for over ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`);
    } else await sleep(POLL_MS + Math.random() * POLL_MS);
  }
}

/**
 * Creates the lock with its content in one step: the content goes to a temp file that is then
 * hard-linked to the lock's name (which fails if the name exists). A kill can thus never leave
 * an empty lock, which would have to wait STALE_MS; at most a temp file, removed later.
 */
async function tryCreate(file: string, content: LockContent): Promise<boolean> {
  const temp = tempPathFor(file);
  await writeFile(temp, JSON.stringify(content), { flag: "wx" });
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Temp files of lock attempts a kill interrupted (their maker no longer runs). */
async function removeLeftoverAttempts(file: string): Promise<void> {
  const folder = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const writerPid = name.startsWith(prefix) ? parseTempName(name)?.writerPid : undefined;
    if (writerPid !== undefined && !isProcessRunning(writerPid)) await unlink(path.join(folder, name)).catch(() => undefined);
  }
}

async function readOwner(file: string): Promise<{ content: LockContent | undefined; stale: boolean } | undefined> {
  let text: string;
  let touched: number;
  try {
    [text, touched] = await Promise.all([readFile(file, "utf8"), stat(file).then((s) => s.mtimeMs)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const content = parseContent(text);
  const untouched = Date.now() - touched > STALE_MS;
  // Locks are created whole (tryCreate); one that does not parse is not ours to judge by its pid.
  if (content === undefined) return { content, stale: untouched };
  const ownerGone = content.host === hostname() && !isProcessRunning(content.pid);
  return { content, stale: ownerGone || untouched };
}

async function takeOver(file: string, judged: LockContent | undefined): Promise<void> {
  const aside = tempPathFor(file); // a kill right here leaves it for removeLeftoverAttempts
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // someone else moved it
    throw error;
  }
  const moved = parseContent(await readFile(aside, "utf8").catch(() => ""));
  if (moved?.token !== judged?.token) {
    // Not the stale lock we judged but a fresh one made meanwhile: put it back.
    await link(aside, file).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

function held(file: string, mine: LockContent): HeldStoreLock {
  const timer = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined); // a missed touch only brings staleness closer
  }, TOUCH_EVERY_MS);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      const current = parseContent(await readFile(file, "utf8").catch(() => ""));
      if (current?.token === mine.token) await unlink(file).catch(() => undefined);
    },
  };
}

function parseContent(text: string): LockContent | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockContent>;
    return typeof value.pid === "number" && typeof value.host === "string" && typeof value.token === "string" ? (value as LockContent) : undefined;
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
