/**
 * A process that dies with Tandem, even when Tandem is killed with SIGKILL. It starts under a
 * short launcher whose watcher, a subshell in the process's group that ignores TERM, INT and HUP,
 * waits on an extra pipe (fd 3) whose other end only this process holds. When that pipe closes
 * without a word (Tandem cut it, or Tandem died, however), the watcher ends the group and every
 * process carrying the tree's mark (util/process-tree.ts: what left the group with `setsid`):
 * SIGTERM, then SIGKILL 2 s later. Released instead (`release()` writes "keep"), the watcher
 * leaves quietly and what the process left running in the background stays.
 *
 * POSIX only. The watcher costs one subshell per process; its sweep, one grep over /proc.
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import type { Writable } from "node:stream";
import { newTreeMark, TREE_MARK } from "./process-tree";

/** $0 is a label, "$@" the process's command; the watcher never holds the process's own output. */
const LAUNCHER = [
  "( trap '' TERM INT HUP",
  '  if read -r word <&3 && [ "$word" = keep ]; then exit 0; fi',
  "  read -r self _ < /proc/self/stat 2>/dev/null",
  // Each process whose environment holds the mark, but the watcher itself: one grep for them all.
  `  sweep() { for f in $(grep -lsz "^${TREE_MARK}=$${TREE_MARK}\\$" /proc/[0-9]*/environ); do p=\${f#/proc/}; p=\${p%/environ}; [ "$p" = "$self" ] || kill -"$1" "$p" 2>/dev/null; done; }`,
  // The watcher is in the group: its own SIGKILL comes last.
  "  kill -TERM 0 2>/dev/null; sweep TERM; sleep 2; sweep KILL; kill -KILL 0 2>/dev/null ) </dev/null >/dev/null 2>&1 &",
  'exec 3<&- "$@"',
].join("\n");

export interface LifelineChild {
  readonly child: ChildProcess;
  /** The value of TREE_MARK the process and its descendants carry (for a ProcessTree). */
  readonly mark: string;
  /** The process ended by itself: the watcher leaves, and so do what it left in the background. */
  release(): void;
  /** Everything goes: the watcher ends the group and the marked processes (Tandem's own exit does this too). */
  cut(): void;
}

/**
 * Spawns `command args` in a process group of its own (detached) under the lifeline launcher.
 * `stdio` gives fds 0–2 (default: three pipes); fd 3 is the lifeline. `env` gets the mark.
 */
export function spawnWithLifeline(
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptions, "stdio" | "detached"> & { readonly stdio?: readonly ["pipe" | "ignore", "pipe" | "ignore", "pipe" | "ignore"]; readonly label?: string },
): LifelineChild {
  const mark = newTreeMark();
  const { stdio = ["pipe", "pipe", "pipe"], label = "tandem-lifeline", env = process.env, ...rest } = options;
  const child = spawn("/bin/sh", ["-c", LAUNCHER, label, command, ...args], { ...rest, env: { ...env, [TREE_MARK]: mark }, detached: true, stdio: [...stdio, "pipe"] });
  const pipe = child.stdio[3] as Writable | null;
  // The lifeline must never keep this process alive, nor carry errors out of here (EPIPE once the watcher left).
  (pipe as unknown as { unref?: () => void } | null)?.unref?.();
  pipe?.on("error", () => {});
  let done = false;
  return {
    child,
    mark,
    release() {
      if (done || !pipe) return;
      done = true;
      pipe.end("keep\n");
    },
    cut() {
      if (done || !pipe) return;
      done = true;
      pipe.destroy();
    },
  };
}
