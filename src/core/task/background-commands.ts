/**
 * Commands the person let go on in the background (execute_command's "proceed while running").
 * The model stopped waiting for them, but what they print afterwards and how they end still
 * matter to it (a dev server's error, a test run's verdict): the news since the last request goes
 * with the next one. Each command's output is kept within the usual head + tail bounds.
 */
import { OutputBuffer, type OutputLimits } from "./tools/output-buffer";

/** What execute_command feeds for one command left running. */
export interface BackgroundCommandFeed {
  append(text: string): void;
  /** The command ended; `how` says how, in a sentence. */
  end(how: string): void;
}

interface Watched {
  readonly command: string;
  /** Output since the last report. */
  output: OutputBuffer;
  ended: string | undefined;
}

export class BackgroundCommands {
  private watched: Watched[] = [];

  constructor(private readonly limits?: OutputLimits) {}

  watch(command: string): BackgroundCommandFeed {
    const entry: Watched = { command, output: new OutputBuffer(this.limits), ended: undefined };
    this.watched.push(entry);
    return {
      append: (text) => {
        if (entry.ended === undefined) entry.output.append(text);
      },
      end: (how) => {
        entry.ended ??= how;
      },
    };
  }

  /**
   * The news since the last call (new output, commands that ended), or undefined when there is
   * none. Ended commands are reported once and then forgotten.
   */
  takeReport(): string | undefined {
    const news = this.watched.filter((w) => !w.output.isBlank || w.ended !== undefined);
    if (news.length === 0) return undefined;
    const parts = news.map((w) => {
      const state = w.ended === undefined ? `Command \`${w.command}\` is still running.` : `Command \`${w.command}\` has ended. ${w.ended}`;
      const output = w.output.isBlank ? "No new output." : `New output:\n${w.output.render()}`;
      w.output = new OutputBuffer(this.limits);
      return `${state}\n${output}`;
    });
    this.watched = this.watched.filter((w) => w.ended === undefined);
    return `<background_commands>\nNews from the commands the person let run in the background, since your last message:\n\n${parts.join("\n\n")}\n</background_commands>`;
  }
}
