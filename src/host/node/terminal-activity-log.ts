/**
 * What the terminals did lately, for `TerminalHost.activity()` (the environment details and
 * `@terminal`): per terminal its last command, whether one runs, and a bounded tail of its output.
 * Both hosts feed it: the Node terminal with the commands it runs, VS Code with Tandem's commands
 * and the person's own. Plain Node, no editor API.
 *
 * Names are made unique when a terminal is first seen ("bash", "bash (2)"), so a reader can tell
 * terminals apart round after round by name alone.
 */
import type { TerminalActivity } from "../bridge";

export interface ActivityLimits {
  /** The output tail kept per terminal, in characters. */
  readonly tailChars: number;
  /** Idle terminals kept (most recent first); busy ones are always kept. */
  readonly idleTerminals: number;
}

const DEFAULT_LIMITS: ActivityLimits = { tailChars: 4_000, idleTerminals: 5 };

/** One command's feed into its terminal's entry. */
export interface ActivityFeed {
  output(text: string): void;
  /** The command ended (safe to call twice). */
  end(): void;
}

interface Entry {
  readonly key: unknown;
  readonly name: string;
  /** Commands running in it now (a terminal lent to one at a time has at most one). */
  running: number;
  lastCommand: string | undefined;
  tail: string;
  length: number;
}

export class TerminalActivityLog {
  /** Most recently used first. */
  private entries: Entry[] = [];
  private readonly limits: ActivityLimits;

  constructor(limits: Partial<ActivityLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** A command starts in the terminal `key` (created on first sight under `name`). */
  begin(key: unknown, name: string, command: string | undefined): ActivityFeed {
    const entry = this.entries.find((e) => e.key === key) ?? this.create(key, name);
    return this.start(entry, command);
  }

  /**
   * A command starts in an idle terminal named `name`, or in a new one when all are busy: how a
   * host that runs one process per command (or lends idle terminals) shows as terminals.
   */
  beginInIdle(name: string, command: string | undefined): ActivityFeed {
    const idle = this.entries.find((e) => e.running === 0 && typeof e.key === "symbol" && e.key.description === name);
    return this.start(idle ?? this.create(Symbol(name), name), command);
  }

  /** The terminal closed. */
  remove(key: unknown): void {
    this.entries = this.entries.filter((e) => e.key !== key);
  }

  activity(): TerminalActivity[] {
    return this.entries.map((e) => ({
      name: e.name,
      busy: e.running > 0,
      ...(e.lastCommand === undefined ? {} : { lastCommand: e.lastCommand }),
      recentOutput: e.tail.length > this.limits.tailChars ? e.tail.slice(-this.limits.tailChars) : e.tail,
      outputLength: e.length,
    }));
  }

  private create(key: unknown, name: string): Entry {
    const taken = new Set(this.entries.map((e) => e.name));
    let unique = name;
    for (let n = 2; taken.has(unique); n++) unique = `${name} (${n})`;
    const entry: Entry = { key, name: unique, running: 0, lastCommand: undefined, tail: "", length: 0 };
    this.entries.unshift(entry);
    return entry;
  }

  private start(entry: Entry, command: string | undefined): ActivityFeed {
    entry.running++;
    entry.lastCommand = command;
    this.toFront(entry);
    let ended = false;
    return {
      output: (text) => {
        if (ended || text === "") return;
        entry.length += text.length;
        entry.tail += text;
        // Trimmed only now and then, so each chunk costs what it adds.
        if (entry.tail.length > 2 * this.limits.tailChars) entry.tail = entry.tail.slice(-this.limits.tailChars);
      },
      end: () => {
        if (ended) return;
        ended = true;
        entry.running--;
        this.prune();
      },
    };
  }

  private toFront(entry: Entry): void {
    this.entries = [entry, ...this.entries.filter((e) => e !== entry)];
    this.prune();
  }

  private prune(): void {
    let idle = 0;
    this.entries = this.entries.filter((e) => e.running > 0 || ++idle <= this.limits.idleTerminals);
  }
}
