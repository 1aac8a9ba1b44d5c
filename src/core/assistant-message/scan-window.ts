/**
 * The not yet consumed end of a streaming message, addressed by offsets in the whole message, with
 * the few look-ups the incremental parser makes in it. It never holds more than the parser still
 * needs to see (a tag that may still be arriving, and the new chunk).
 */
import { type PARTIAL, type TagTable, isWs, tagAt } from "./tool-tags";

export class ScanWindow {
  text = "";
  base = 0;
  /** Set when `find` fails: up to where the text is surely not part of the token sought. */
  safe = 0;

  get end(): number {
    return this.base + this.text.length;
  }

  reset(): void {
    this.text = "";
    this.base = 0;
    this.safe = 0;
  }

  /** Drops the text before `from` and appends `chunk`. */
  shift(from: number, chunk: string): void {
    const drop = from - this.base;
    this.text = drop >= this.text.length ? chunk : (drop > 0 ? this.text.slice(drop) : this.text) + chunk;
    this.base = Math.max(from, this.base);
  }

  slice(from: number, to: number): string {
    return to <= from ? "" : this.text.slice(from - this.base, to - this.base);
  }

  tail(from: number): string {
    return this.text.slice(from - this.base);
  }

  startsWith(token: string, at: number): boolean {
    return this.text.startsWith(token, at - this.base);
  }

  /** The first `<` in [from, limit), or -1. */
  nextLt(from: number, limit: number): number {
    if (from >= limit) return -1;
    const i = this.text.indexOf("<", from - this.base);
    return i === -1 || i + this.base >= limit ? -1 : i + this.base;
  }

  /** The tag at `at`, judged on all the text there is (tags never span a `<`, so no limit applies). */
  tagAt<T>(at: number, table: TagTable<T>): T | undefined | typeof PARTIAL {
    return tagAt(this.text, at - this.base, this.text.length, table);
  }

  skipWs(from: number): number {
    const t = this.text;
    let i = from - this.base;
    while (i < t.length && isWs(t.charCodeAt(i))) i++;
    return i + this.base;
  }

  /** The first complete `a` (or `b`) starting in [from, limit), or -1 with `safe` set. */
  find(from: number, limit: number, a: string, b = ""): number {
    for (let p = from; ; ) {
      const lt = this.nextLt(p, limit);
      if (lt === -1) {
        this.safe = Math.max(from, limit);
        return -1;
      }
      if (this.startsWith(a, lt) || (b !== "" && this.startsWith(b, lt))) return lt;
      const restLength = this.end - lt; // only a token cut off by the end of the text can be partial
      if ((restLength < a.length && a.startsWith(this.tail(lt))) || (restLength < b.length && b.startsWith(this.tail(lt)))) {
        this.safe = lt;
        return -1;
      }
      p = lt + 1;
    }
  }
}
