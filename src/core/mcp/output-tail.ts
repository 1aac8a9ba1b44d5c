/**
 * The last few kilobytes of a stream (a stdio server's stderr), kept to explain why a server
 * failed without letting a chatty server grow memory.
 */
export class OutputTail {
  private text = "";

  constructor(private readonly maxChars = 4000) {}

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.maxChars * 2) this.text = this.text.slice(-this.maxChars);
  }

  /** The tail, starting at a line boundary when one is near. */
  value(): string {
    if (this.text.length <= this.maxChars) return this.text.trimEnd();
    const cut = this.text.slice(-this.maxChars);
    const newline = cut.indexOf("\n");
    return (newline >= 0 && newline < 200 ? cut.slice(newline + 1) : cut).trimEnd();
  }
}
