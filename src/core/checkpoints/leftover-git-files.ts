/**
 * Cleans what an operation killed midway (kill -9, a crash) leaves in a shadow repository. It runs
 * under the store lock at the start of every operation, so no live Tandem operation owns any of it:
 * - the killed operation's name for the index (a temp-name.ts name, with git's `.lock` beside it),
 *   once the process that made it no longer runs. The shadow's real index is only ever replaced by
 *   a rename, so a kill never leaves it half-written or locked.
 * - git's own lock files for what a checkpoint updates (HEAD, the task refs, packed-refs) and an
 *   `index.lock`, once older than GIT_LOCK_GRACE_MS. A git child can outlive a killed Tandem and
 *   still be finishing; git holds these locks for milliseconds, so the grace is ample, and a lock
 *   that old can have no live holder.
 * Half-written objects (`tmp_obj_*`, `tmp_pack_*`) do no harm; `git gc` removes them.
 */
import { stat, unlink } from "node:fs/promises";
import * as path from "node:path";
import { parseTempName } from "../storage/temp-name";
import { isProcessRunning } from "../util/process-running";
import { namesIn } from "./fs-probes";

export const GIT_LOCK_GRACE_MS = 2_000;

const GIT_LOCKS = ["index.lock", "HEAD.lock", "packed-refs.lock", "config.lock"];

export async function removeLeftoverGitFiles(gitDir: string, refFolder: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await namesIn(gitDir)) {
    const temp = parseTempName(name.endsWith(".lock") ? name.slice(0, -".lock".length) : name);
    if (temp?.writerPid !== undefined && temp.writerPid !== process.pid && !isProcessRunning(temp.writerPid)) {
      if (await removeFile(path.join(gitDir, name))) removed.push(name);
    }
  }
  const locks = [...GIT_LOCKS.map((name) => path.join(gitDir, name)), ...(await namesIn(refFolder)).filter((n) => n.endsWith(".lock")).map((n) => path.join(refFolder, n))];
  for (const lock of locks) {
    if ((await ageMs(lock)) > GIT_LOCK_GRACE_MS && (await removeFile(lock))) removed.push(path.relative(gitDir, lock));
  }
  return removed;
}


async function ageMs(file: string): Promise<number> {
  try {
    return Date.now() - (await stat(file)).mtimeMs;
  } catch {
    return -1; // not there
  }
}

async function removeFile(file: string): Promise<boolean> {
  try {
    await unlink(file);
    return true;
  } catch {
    return false; // gone already
  }
}
