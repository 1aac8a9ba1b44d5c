/**
 * What the terminals printed since the last round, for the environment details: each output is
 * told once. The host's `outputLength` says exactly how much is new; a host without it is judged
 * by whether its tail changed. Output that this request already carries (the tool result of the
 * command that printed it, the background news) is named, not repeated.
 */
import type { TerminalActivity } from "../../host/bridge";
import type { TerminalReport } from "./environment-details";

/** About 250 tokens of a terminal's new output at most; a test run's verdict is at its end. */
export const TERMINAL_NEWS_CHARS = 1_000;
/** Terminals reported per round at most (the host lists the most recently used first). */
export const TERMINALS_SHOWN = 5;
/** How much of the output's end must appear in the request to count as already shown. */
const SHOWN_PROBE_CHARS = 200;

interface Seen {
  readonly length: number | undefined;
  readonly tail: string;
  readonly busy: boolean;
  readonly lastCommand: string | undefined;
}

export class TerminalNews {
  private readonly seen = new Map<string, Seen>();

  /**
   * The terminals with news (new output, or a command started or ended) and those still running
   * something. `alreadySent`: the text this request carries besides the details.
   */
  take(activity: readonly TerminalActivity[], alreadySent: string): TerminalReport[] {
    const reports: TerminalReport[] = [];
    // The least recently used beyond the first few wait, unseen, for a round that shows them.
    for (const terminal of activity.slice(0, TERMINALS_SHOWN)) {
      const before = this.seen.get(terminal.name);
      this.seen.set(terminal.name, { length: terminal.outputLength, tail: terminal.recentOutput, busy: terminal.busy, lastCommand: terminal.lastCommand });
      const fresh = newOutput(before, terminal);
      const changed = fresh.text !== "" || before?.busy !== terminal.busy || before.lastCommand !== terminal.lastCommand;
      if (!changed && !terminal.busy) continue;
      const bounded = fresh.text.length > TERMINAL_NEWS_CHARS ? fromLineStart(fresh.text.slice(-TERMINAL_NEWS_CHARS)) : fresh.text;
      const trimmed = bounded.replace(/\s+$/, "");
      reports.push({
        name: terminal.name,
        busy: terminal.busy,
        ...(terminal.lastCommand === undefined ? {} : { lastCommand: terminal.lastCommand }),
        newOutput: trimmed,
        cut: fresh.cut || bounded.length < fresh.text.length,
        alreadyShown: trimmed !== "" && alreadySent.includes(trimmed.slice(-SHOWN_PROBE_CHARS)),
      });
    }
    const names = new Set(activity.map((t) => t.name));
    for (const name of this.seen.keys()) if (!names.has(name)) this.seen.delete(name);
    return reports;
  }
}

function newOutput(before: Seen | undefined, now: TerminalActivity): { text: string; cut: boolean } {
  const tail = now.recentOutput;
  if (now.outputLength === undefined || before?.length === undefined) {
    // Without a count only a changed tail tells; it is then told whole.
    return before !== undefined && before.tail === tail ? { text: "", cut: false } : { text: tail, cut: false };
  }
  const added = now.outputLength - before.length;
  // Fewer characters than before: another terminal under the same name; all of it is new.
  if (added < 0) return { text: tail, cut: now.outputLength > tail.length };
  if (added === 0) return { text: "", cut: false };
  return added > tail.length ? { text: tail, cut: true } : { text: tail.slice(tail.length - added), cut: false };
}

/** A cut tail starts at its next whole line, when there is one. */
function fromLineStart(text: string): string {
  const newline = text.indexOf("\n");
  return newline >= 0 && newline < text.length - 1 ? text.slice(newline + 1) : text;
}
