/**
 * The chat and the questions share one terminal. A row printed while a question waits (the
 * request's cost arrives just after its tool asks, a background command ends) goes above the
 * prompt, and the prompt is drawn again below it with what the person had typed so far.
 */
import { clearLine, cursorTo } from "node:readline";
import type { Interface } from "node:readline/promises";

export class TerminalScreen {
  private asking = false;
  /** The prompt line is cleared until the printed text ends its line. */
  private promptHidden = false;

  constructor(
    private readonly prompt: Interface,
    private readonly out: NodeJS.WriteStream,
    private readonly promptOut: NodeJS.WriteStream,
  ) {
    // After a question readline falls back to its default prompt ("> "), drawn on some refreshes.
    prompt.setPrompt("");
  }

  /** Asks one question; the signal takes it back (readline then ends the line itself). */
  async question(text: string, signal: AbortSignal): Promise<string> {
    this.asking = true;
    this.promptHidden = false;
    try {
      return await this.prompt.question(text, { signal });
    } finally {
      this.asking = false;
    }
  }

  /** The printer's output. */
  write(text: string): void {
    if (!this.asking) {
      this.out.write(text);
      return;
    }
    if (!this.promptHidden) {
      cursorTo(this.promptOut, 0);
      clearLine(this.promptOut, 0);
      this.promptHidden = true;
    }
    this.out.write(text);
    if (text.endsWith("\n")) {
      this.promptHidden = false;
      this.prompt.prompt(true);
    }
  }
}
