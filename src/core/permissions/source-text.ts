import { offsets, type ShNode } from "./sh-nodes";

/** The command line being parsed. mvdan/sh reports byte offsets, so slices go through UTF-8. */
export class SourceText {
  private readonly bytes: Buffer;

  constructor(source: string) {
    this.bytes = Buffer.from(source, "utf8");
  }

  of(node: ShNode): string {
    const { start, end } = offsets(node);
    return this.slice(start, end);
  }

  slice(start: number, end: number): string {
    return this.bytes.subarray(start, end).toString("utf8");
  }
}
