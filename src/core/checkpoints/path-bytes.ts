/**
 * File names are bytes, and not all of them are UTF-8 (a Latin-1 `caf\xe9.txt`). The store keeps
 * a name as a string, so that its sets, maps and parsers work as they do, but one that says the
 * bytes exactly: git's output is read as UTF-8, and where a byte is not UTF-8 it becomes a lone
 * surrogate U+DC80–U+DCFF (Python's "surrogateescape"), which valid UTF-8 never decodes to. The
 * way back gives the same bytes: to git on its stdin (git-process.ts), to the file system as a
 * Buffer path. Only what people see writes such a byte as `\xe9` (`shownPath`).
 *
 * The usual name is valid UTF-8, and costs one check: `isUtf8` on git's output, one regular
 * expression test on what goes back.
 */
import { isUtf8 } from "node:buffer";

/** A lone low surrogate of the escaped range: never paired, so never half of a real character. */
const ESCAPED = /(?<![\ud800-\udbff])[\udc80-\udcff]/;
const ESCAPED_RUNS = /(?<![\ud800-\udbff])[\udc80-\udcff]+/g;
const ESCAPE_BASE = 0xdc00;

/** Bytes (git's output, a file's text) as a string that names them exactly. */
export function decodeBytes(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString("utf8");
  // NUL-separated output (-z) in fields, so that the valid ones, nearly all, decode natively.
  const fields: string[] = [];
  for (let start = 0; ; ) {
    const end = bytes.indexOf(0, start);
    const field = bytes.subarray(start, end < 0 ? bytes.length : end);
    fields.push(isUtf8(field) ? field.toString("utf8") : decodeEscaping(field));
    if (end < 0) break;
    start = end + 1;
  }
  return fields.join("\0");
}

/** A string from decodeBytes as its bytes again; a string with nothing escaped as it is (Node writes it as UTF-8). */
export function encodeText(text: string): string | Buffer {
  if (!ESCAPED.test(text)) return text;
  const parts: Buffer[] = [];
  let last = 0;
  for (const match of text.matchAll(ESCAPED_RUNS)) {
    const run = match[0];
    parts.push(Buffer.from(text.slice(last, match.index), "utf8"));
    const bytes = Buffer.allocUnsafe(run.length);
    for (let i = 0; i < run.length; i++) bytes[i] = run.charCodeAt(i) - ESCAPE_BASE;
    parts.push(bytes);
    last = match.index + run.length;
  }
  parts.push(Buffer.from(text.slice(last), "utf8"));
  return Buffer.concat(parts);
}

/** A path for fs calls: a Buffer when its name is not UTF-8. */
export const fsPath: (file: string) => string | Buffer = encodeText;

/** A path as people and the model see it: each byte that is not UTF-8 written as `\xNN`. */
export function shownPath(file: string): string {
  if (!ESCAPED.test(file)) return file;
  return file.replace(ESCAPED_RUNS, (run) => [...run].map((c) => `\\x${(c.charCodeAt(0) - ESCAPE_BASE).toString(16).padStart(2, "0")}`).join(""));
}

/**
 * UTF-8 with every byte that does not start a valid sequence (shortest form, no surrogates, up to
 * U+10FFFF) taken as an escaped byte on its own, the next byte starting afresh.
 */
function decodeEscaping(bytes: Buffer): string {
  let text = "";
  const units: number[] = [];
  const flush = () => {
    text += String.fromCharCode(...units);
    units.length = 0;
  };
  for (let i = 0; i < bytes.length; ) {
    const length = sequenceLength(bytes, i);
    const first = bytes[i] as number;
    if (length === 0) {
      units.push(ESCAPE_BASE + first);
      i++;
    } else if (length === 1) {
      units.push(first);
      i++;
    } else {
      let point = first & (0xff >> (length + 1));
      for (let k = 1; k < length; k++) point = (point << 6) | ((bytes[i + k] as number) & 0x3f);
      if (point >= 0x10000) units.push(0xd800 + ((point - 0x10000) >> 10), 0xdc00 + ((point - 0x10000) & 0x3ff));
      else units.push(point);
      i += length;
    }
    if (units.length >= 4096) flush();
  }
  flush();
  return text;
}

/** The length of the valid UTF-8 sequence at `at`, or 0 when none starts there. */
function sequenceLength(bytes: Buffer, at: number): number {
  const first = bytes[at] as number;
  if (first < 0x80) return 1;
  const next = (k: number) => (at + k < bytes.length ? (bytes[at + k] as number) : -1);
  const continues = (k: number, low = 0x80, high = 0xbf) => next(k) >= low && next(k) <= high;
  if (first >= 0xc2 && first <= 0xdf) return continues(1) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    const low = first === 0xe0 ? 0xa0 : 0x80;
    const high = first === 0xed ? 0x9f : 0xbf;
    return continues(1, low, high) && continues(2) ? 3 : 0;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    const low = first === 0xf0 ? 0x90 : 0x80;
    const high = first === 0xf4 ? 0x8f : 0xbf;
    return continues(1, low, high) && continues(2) && continues(3) ? 4 : 0;
  }
  return 0;
}
