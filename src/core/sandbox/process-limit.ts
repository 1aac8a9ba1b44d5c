/**
 * How many processes sandboxed commands may run at once, so a fork bomb the guard cannot read
 * stops at a cap instead of taking the machine. An ordinary user gets a process-count limit per
 * command (`ulimit -u`). Root ignores that limit, so for root this Tandem process moves itself,
 * once, into a pids cgroup of its own, which its commands inherit: moving each command into a
 * group of its own cost about 15 ms per command (measured), most of the sandbox's overhead.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { isProcessRunning } from "../util/process-running";

/** Processes the commands may run at once, on top of what runs when the limit is set. */
export const MAX_PROCESSES = 2048;

const GROUP_PREFIX = "tandem-";
/** Where pids cgroups can be made (cgroup v1's pids hierarchy, or v2's), found once. */
let pidsRoot: string | null | undefined;
/** This process's group, once made, and the group it came from (its parent: limits above still hold). */
let ownGroup: { readonly path: string; readonly parent: string } | undefined;

/** Shell lines for the launcher, run before the sandbox starts: the per-command limit where there is one. */
export function processLimitLines(): string {
  if (process.getuid?.() !== 0) {
    // The kernel counts all the user's threads against the cap, so it sits above what runs
    // already: the machine's thread count (/proc/loadavg's fourth field), read by the shell itself
    // (`ps` cost about 5 ms per command, and counted processes, not threads). dash, Debian's sh,
    // names the limit -p; bash, zsh and busybox -u.
    return (
      `read -r _tandem_l _tandem_l _tandem_l _tandem_n _tandem_l < /proc/loadavg 2>/dev/null && _tandem_n=$((\${_tandem_n#*/} + ${MAX_PROCESSES})) && ` +
      `{ ulimit -u "$_tandem_n" || ulimit -p "$_tandem_n"; } 2>/dev/null; unset _tandem_l _tandem_n`
    );
  }
  joinOwnGroup();
  return "";
}

/** Root: this process and all it starts from now on share one pids cgroup (made once; none where the machine offers none). */
function joinOwnGroup(): void {
  if (ownGroup) return;
  const parent = currentGroup();
  if (!parent) return;
  const group = path.join(parent, `${GROUP_PREFIX}${process.pid}`);
  try {
    if (!existsSync(group)) mkdirSync(group);
    writeFileSync(path.join(group, "cgroup.procs"), String(process.pid));
    const current = Number(readFileSync(path.join(group, "pids.current"), "utf8")) || 0;
    writeFileSync(path.join(group, "pids.max"), String(current + MAX_PROCESSES));
    ownGroup = { path: group, parent };
  } catch {
    // Not ours to change: no limit for root then.
  }
}

/** At exit: back to the group this process came from, and its own group removed. */
export function leaveProcessGroup(): void {
  const group = ownGroup;
  if (!group) return;
  ownGroup = undefined;
  try {
    writeFileSync(path.join(group.parent, "cgroup.procs"), String(process.pid));
    rmdirSync(group.path);
  } catch {
    // Commands still running keep it; the next Tandem removes it once they are gone.
  }
}

/** Groups that Tandem processes no longer running left behind (killed, or gone before their commands). */
export function removeLeftoverProcessGroups(): void {
  if (process.getuid?.() !== 0) return;
  // Siblings of this process's own group: where other Tandems of the same parent made theirs.
  const parent = ownGroup?.parent ?? currentGroup();
  if (!parent) return;
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return; // Not ours to list.
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^${GROUP_PREFIX}(\\d+)(-|$)`).exec(name)?.[1]);
    if (!(pid > 0) || pid === process.pid || isProcessRunning(pid)) continue;
    try {
      rmdirSync(path.join(parent, name));
    } catch {
      // Its commands still run (EBUSY), or another Tandem removed it first: the others still go.
    }
  }
}

/** The pids cgroup folder this process is in now (cgroup v1's pids line, or v2's single line of /proc/self/cgroup). */
function currentGroup(): string | undefined {
  const root = findPidsRoot();
  if (!root) return undefined;
  try {
    const lines = readFileSync("/proc/self/cgroup", "utf8").split("\n");
    const v1 = root.endsWith("/pids");
    const line = lines.find((l) => (v1 ? l.split(":")[1]?.split(",").includes("pids") : l.startsWith("0::")));
    const relative = line?.split(":").slice(2).join(":");
    return relative === undefined ? undefined : path.join(root, relative);
  } catch {
    return undefined;
  }
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
