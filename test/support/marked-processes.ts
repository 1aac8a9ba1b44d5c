/** Processes a test started with a unique marker argument (e.g. `sleep 300.123`), found through /proc (Linux). */
import { readdirSync, readFileSync } from "node:fs";

/** The running processes one of whose arguments holds one of `markers` (`sh -c 'sleep …'` included; zombies are not running). */
export function withArgument(markers: readonly string[]): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((pid) => {
      try {
        if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) return false;
        const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        return args.some((arg) => markers.some((marker) => arg.includes(marker)));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The processes with `marker` still running once none are, or `withinMs` passed. */
export async function gone(marker: string, withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const left = withArgument([marker]);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
