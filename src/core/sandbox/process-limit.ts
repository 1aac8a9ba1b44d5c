/**
 * How many processes a sandboxed command may run at once, so a fork bomb the guard cannot read
 * stops at a cap instead of taking the machine. An ordinary user gets a process-count limit
 * (`ulimit -u`); root ignores that limit, so for root each command gets a pids cgroup of its own
 * where the machine lets us make one. The launcher applies it before the sandbox starts.
 */
import { existsSync, mkdirSync, readdirSync, rmdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** Processes one command may run at once (its own and all it starts). */
export const MAX_PROCESSES = 2048;

export interface ProcessLimit {
  /** Shell lines for the launcher, run before the sandbox starts. */
  readonly lines: string;
  /** After the command ended: removes its cgroup. */
  release(): void;
}

/** Where pids cgroups can be made (cgroup v1's pids hierarchy, or v2's), found once. */
let pidsRoot: string | null | undefined;
/** The groups of this process's commands not yet removed. */
const groups = new Set<string>();
const GROUP_PREFIX = "tandem-";

/** `name` is unique per command; the group's name starts with this process's pid, so leftovers can be told apart. */
export function processLimit(name: string): ProcessLimit {
  if (process.getuid?.() !== 0) {
    // The user's own processes count too, so the cap is on top of what runs already.
    const lines = `_tandem_n=$(ps -U "$(id -u)" -o pid= 2>/dev/null | wc -l) && ulimit -u $((_tandem_n + ${MAX_PROCESSES})) 2>/dev/null; unset _tandem_n`;
    return { lines, release: () => {} };
  }
  const root = findPidsRoot();
  if (!root) return { lines: "", release: () => {} };
  const group = path.join(root, `${GROUP_PREFIX}${process.pid}-${name}`);
  try {
    mkdirSync(group);
    groups.add(group);
    writeFileSync(path.join(group, "pids.max"), String(MAX_PROCESSES));
  } catch {
    return { lines: "", release: () => removeGroup(group) };
  }
  return { lines: `echo $$ > '${path.join(group, "cgroup.procs")}' 2>/dev/null`, release: () => removeGroup(group) };
}

function findPidsRoot(): string | undefined {
  if (pidsRoot !== undefined) return pidsRoot ?? undefined;
  pidsRoot = null;
  for (const candidate of ["/sys/fs/cgroup/pids", "/sys/fs/cgroup"]) {
    const probe = path.join(candidate, `tandem-probe-${process.pid}`);
    try {
      if (!existsSync(path.join(candidate, "cgroup.procs"))) continue;
      mkdirSync(probe);
      const usable = existsSync(path.join(probe, "pids.max"));
      rmdirSync(probe);
      if (usable) {
        pidsRoot = candidate;
        break;
      }
    } catch {
      // Not ours to write here.
    }
  }
  return pidsRoot ?? undefined;
}

/** A cgroup goes once its last process has: retried for a while, as the kill of a group takes time. */
function removeGroup(group: string, attempt = 0): void {
  try {
    rmdirSync(group);
    groups.delete(group);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") groups.delete(group);
    else if (code === "EBUSY" && attempt < 20) setTimeout(() => removeGroup(group, attempt + 1), 500).unref();
  }
}

/** At exit: the groups still here (a command's processes were slow to go). */
export function releaseProcessGroups(): void {
  for (const group of groups) removeGroup(group, Number.POSITIVE_INFINITY);
}

/** Groups that Tandem processes no longer running left behind (killed, or gone before their commands). */
export function removeLeftoverProcessGroups(isAlive: (pid: number) => boolean): void {
  if (process.getuid?.() !== 0) return;
  const root = findPidsRoot();
  if (!root) return;
  try {
    for (const name of readdirSync(root)) {
      const pid = Number(new RegExp(`^${GROUP_PREFIX}(\\d+)-`).exec(name)?.[1]);
      if (pid > 0 && pid !== process.pid && !isAlive(pid)) removeGroup(path.join(root, name), Number.POSITIVE_INFINITY);
    }
  } catch {
    // Not ours to list: nothing to clean.
  }
}
