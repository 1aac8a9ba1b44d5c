/**
 * What a process started that left its process group (`setsid`, `setpgid`), found through /proc
 * on Linux so that it can be killed with the process. The caller kills the process's own group
 * (one `kill(-pid)`); this finds the rest: the descendants outside that group, by their parent
 * links, and by a variable they inherit in their environment (TREE_MARK, a value of their own).
 *
 * A child's parent link points at init once its parent exits, so the links are collected while
 * the tree runs: every `collectEveryMs` and again at each kill. The mark finds a `setsid` child
 * whose parent exited before any look (at once, or in the group's kill).
 * A process is known by its pid and start time, so a pid the system gave to another process
 * since is never signalled. Elsewhere (no /proc) it finds nothing and the group kill is all.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";

/** The environment variable a tree's processes carry (a process may drop it: the parent links still hold). */
export const TREE_MARK = "TANDEM_PROCESS_TREE";

interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  /** Since boot, in clock ticks: a pid plus this names one process for ever. */
  readonly start: string;
  readonly zombie: boolean;
}

export interface ProcessTreeOptions {
  /** How often to look for new descendants while the process runs; 0: only at kill time. */
  readonly collectEveryMs?: number;
  /** The value of TREE_MARK in the root's environment (from `newTreeMark`), looked for at kill time. */
  readonly mark?: string;
}

/** A value for TREE_MARK, new for each process started. */
export function newTreeMark(): string {
  return randomUUID();
}

const HAS_PROC = process.platform === "linux" && existsSync("/proc/self/stat");

export class ProcessTree {
  /** Descendants seen so far, outside the root's group: pid → start time. */
  private readonly known = new Map<number, string>();
  private readonly rootStart: string | undefined;
  /** `\0TREE_MARK=value\0` as it appears in /proc/<pid>/environ (with a NUL before: one is added). */
  private readonly mark: Buffer | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** `rootPid`: just spawned, the leader of a process group of its own (`detached: true`). */
  constructor(
    private readonly rootPid: number,
    options: ProcessTreeOptions = {},
  ) {
    // Read at once: a pid whose process has exited may be another's soon. A root gone already has no links to follow.
    const root = HAS_PROC ? readEntry(rootPid) : undefined;
    this.rootStart = root?.start;
    this.mark = options.mark ? Buffer.from(`\0${TREE_MARK}=${options.mark}\0`) : undefined;
    if (root && options.collectEveryMs) {
      this.timer = setInterval(() => this.collect(), options.collectEveryMs);
      this.timer.unref();
    }
  }

  /** Adds the descendants running now (children of the root and of every one known). */
  collect(): void {
    if (!HAS_PROC) return;
    const table = processTable();
    for (const [pid, start] of this.known) if (table.get(pid)?.start !== start) this.known.delete(pid);
    const children = new Map<number, ProcessEntry[]>();
    for (const entry of table.values()) {
      const siblings = children.get(entry.ppid);
      if (siblings) siblings.push(entry);
      else children.set(entry.ppid, [entry]);
    }
    const parents = [...this.known.keys()];
    if (this.rootStart !== undefined && table.get(this.rootPid)?.start === this.rootStart) parents.push(this.rootPid);
    const seen = new Set(parents);
    for (let parent = parents.pop(); parent !== undefined; parent = parents.pop()) {
      for (const child of children.get(parent) ?? []) {
        if (seen.has(child.pid)) continue;
        seen.add(child.pid);
        parents.push(child.pid);
        // The root's group is the caller's to kill, and a child may join it again later.
        if (child.pgrp !== this.rootPid) this.known.set(child.pid, child.start);
      }
    }
  }

  /** Collects, then signals every known descendant outside the root's group, and the groups they lead. */
  kill(signal: NodeJS.Signals): void {
    if (!HAS_PROC) return;
    this.collect();
    if (this.adoptMarked()) this.collect();
    for (const [pid, start] of this.known) {
      const entry = readEntry(pid);
      if (entry?.start !== start || entry.zombie) continue;
      send(pid, signal);
      // A `setsid` child leads a group of its own: its children that were orphaned go with it.
      if (entry.pgrp === pid) send(-pid, signal);
    }
  }

  /** Whether a known descendant still runs. */
  running(): boolean {
    for (const [pid, start] of this.known) {
      const entry = readEntry(pid);
      if (entry?.start === start && !entry.zombie) return true;
    }
    return false;
  }

  /** Stops collecting; what was found stays known. */
  dispose(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Adds the processes that carry the tree's mark (outside the root's group). */
  private adoptMarked(): boolean {
    if (!this.mark) return false;
    let adopted = false;
    for (const pid of numericEntries("/proc")) {
      if (pid === process.pid || pid === this.rootPid || this.known.has(pid) || !carries(pid, this.mark)) continue;
      const entry = readEntry(pid);
      if (!entry || entry.pgrp === this.rootPid) continue;
      this.known.set(pid, entry.start);
      adopted = true;
    }
    return adopted;
  }
}

function send(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // ESRCH: gone already; EPERM: not ours to end.
  }
}

function processTable(): Map<number, ProcessEntry> {
  const table = new Map<number, ProcessEntry>();
  for (const pid of numericEntries("/proc")) {
    const entry = readEntry(pid);
    if (entry) table.set(pid, entry);
  }
  return table;
}

function readEntry(pid: number): ProcessEntry | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** /proc/<pid>/stat: "pid (comm) state ppid pgrp session … starttime(22nd) …"; comm may hold spaces and parentheses. */
export function parseStat(text: string): ProcessEntry | undefined {
  const close = text.lastIndexOf(")");
  const pid = Number.parseInt(text, 10);
  if (close === -1 || !Number.isInteger(pid)) return undefined;
  const fields = text.slice(close + 2).split(" ");
  const [state, ppid, pgrp] = fields;
  const start = fields[19];
  if (state === undefined || ppid === undefined || pgrp === undefined || start === undefined) return undefined;
  return { pid, ppid: Number(ppid), pgrp: Number(pgrp), start, zombie: state === "Z" || state === "X" };
}

function carries(pid: number, mark: Buffer): boolean {
  try {
    return Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)]).includes(mark);
  } catch {
    return false;
  }
}

function numericEntries(folder: string): number[] {
  try {
    return readdirSync(folder)
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}
