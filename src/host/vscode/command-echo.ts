/**
 * VS Code's `execution.read()` normally starts after the command line the shell echoed, but when
 * a terminal is reused right after its previous command, the echo sometimes comes through first
 * (seen in code-server 4.100.3 with bash). The model must not mistake it for output, so a first
 * line that is exactly the command line is dropped. Only the first line is ever held back.
 */
export class LeadingEchoFilter {
  private head = "";
  private decided = false;
  private readonly commandLine: string;

  constructor(command: string) {
    this.commandLine = command.trim();
  }

  /** The cleaned output to pass on (held back while it could still be the echo). */
  push(text: string): string {
    if (this.decided) return text;
    this.head += text;
    const newline = this.head.indexOf("\n");
    if (newline < 0) {
      // A first line that can still grow into the command line waits for its end.
      if (this.commandLine.startsWith(this.head.trim())) return "";
      return this.release();
    }
    if (this.head.slice(0, newline).trim() === this.commandLine && this.commandLine !== "") {
      this.head = this.head.slice(newline + 1);
    }
    return this.release();
  }

  /** At the end of the output: whatever was held back was output after all. */
  flush(): string {
    return this.release();
  }

  private release(): string {
    this.decided = true;
    const out = this.head;
    this.head = "";
    return out;
  }
}
