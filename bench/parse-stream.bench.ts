/**
 * Streaming parse cost: an assistant answer of ~200 KB (prose, write_to_file and replace_in_file calls
 * with realistic code) fed in 16-byte chunks to
 *   (a) IncrementalAssistantMessageParser.append(chunk), and
 *   (b) Cline's way: parseAssistantMessageV2(wholeTextSoFar) after every chunk,
 * plus one parseAssistantMessageV2(fullText) for scale. Sizes 50/100/200 KB show how each grows.
 * Both loops glance at the last block after every chunk; the incremental parser's values are plain
 * strings built as V8 ropes, so reading one costs what reading any string costs.
 */
import { IncrementalAssistantMessageParser } from "../src/core/assistant-message/incremental-parser";
import { parseAssistantMessageV2 } from "../src/core/assistant-message/parse-assistant-message";
import type { AssistantMessageContent } from "../src/core/assistant-message/types";
import { prng } from "../test/support/prng";

const CHUNK = 16;
const SIZES_KB = [50, 100, 200];
/** Past this, the baseline is timed on a prefix of the chunks and extrapolated (it is quadratic). */
const BASELINE_BUDGET_MS = 60_000;

export async function run(): Promise<void> {
  const texts = SIZES_KB.map((kb) => buildAnswer(kb * 1024));
  warmUp(texts);
  console.log(`chunk size ${CHUNK} bytes; times are medians; "per KB" = time / message size`);
  const rows = texts.map(measure);
  for (const r of rows) {
    console.log(
      `${(r.size / 1024).toFixed(0).padStart(4)} KB (${r.chunks} chunks, ${r.blocks} blocks): ` +
        `single parse ${ms(r.single)} | incremental ${ms(r.incremental)} (${ms((r.incremental / r.size) * 1024)}/KB) | ` +
        `baseline ${ms(r.baseline)}${r.extrapolated ? " (extrapolated)" : ""} (${ms((r.baseline / r.size) * 1024)}/KB)`,
    );
  }
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1] as Row, rows[i] as Row];
    const sizeX = b.size / a.size;
    console.log(
      `growth ${(a.size / 1024).toFixed(0)}->${(b.size / 1024).toFixed(0)} KB (x${sizeX.toFixed(2)} size): ` +
        `incremental x${(b.incremental / a.incremental).toFixed(2)} (linear ~x${sizeX.toFixed(1)}), ` +
        `baseline x${(b.baseline / a.baseline).toFixed(2)} (quadratic ~x${(sizeX * sizeX).toFixed(1)})`,
    );
  }
  const big = rows[rows.length - 1] as Row;
  const speedup = big.baseline / big.incremental;
  const overSingle = big.incremental / big.single;
  console.log(`ratio baseline/incremental at ${(big.size / 1024).toFixed(0)} KB: ${speedup.toFixed(1)}x`);
  console.log(`ratio incremental/single-parse at ${(big.size / 1024).toFixed(0)} KB: ${overSingle.toFixed(2)}x`);
  console.log(`${speedup >= 50 ? "PASS" : "MISS"} target: incremental >= 50x faster than the baseline (${speedup.toFixed(1)}x)`);
  console.log(`${overSingle <= 3 ? "PASS" : "MISS"} target: streamed parse within 3x of one single parse (${overSingle.toFixed(2)}x)`);
}

interface Row {
  size: number;
  chunks: number;
  blocks: number;
  single: number;
  incremental: number;
  baseline: number;
  extrapolated: boolean;
}

function measure(text: string): Row {
  const chunks = split(text);
  const want = JSON.stringify(parseAssistantMessageV2(text));
  const got = JSON.stringify(streamIncremental(chunks));
  if (got !== want) throw new Error(`incremental result differs from the single parse at ${text.length} chars`);

  const single = median(repeat(30, () => time(() => parseAssistantMessageV2(text))));
  const incremental = median(repeat(15, () => time(() => streamIncremental(chunks))));
  const { ms: baseline, extrapolated } = timeBaseline(chunks);
  const blocks = parseAssistantMessageV2(text).length;
  return { size: text.length, chunks: chunks.length, blocks, single, incremental, baseline, extrapolated };
}

/** What a presenter checks after each chunk: how many blocks, and whether the last one is done. */
let sink = 0;
function touch(blocks: readonly AssistantMessageContent[]): void {
  const last = blocks[blocks.length - 1];
  sink += blocks.length + (last?.partial ? 1 : 0);
}

function streamIncremental(chunks: readonly string[]): readonly AssistantMessageContent[] {
  const parser = new IncrementalAssistantMessageParser();
  let blocks: readonly AssistantMessageContent[] = [];
  for (const c of chunks) {
    blocks = parser.append(c);
    touch(blocks);
  }
  return blocks;
}

function timeBaseline(chunks: readonly string[]): { ms: number; extrapolated: boolean } {
  let soFar = "";
  const start = performance.now();
  for (let i = 0; i < chunks.length; i++) {
    soFar += chunks[i];
    touch(parseAssistantMessageV2(soFar));
    const elapsed = performance.now() - start;
    // Cost of prefix k grows ~linearly in k, so the total after i chunks grows ~quadratically.
    const projected = elapsed * ((chunks.length / (i + 1)) ** 2);
    if (i >= 200 && projected > BASELINE_BUDGET_MS) return { ms: projected, extrapolated: true };
  }
  return { ms: performance.now() - start, extrapolated: false };
}

/** Lets the JIT settle first, so the first size measured is not charged for compiling. */
function warmUp(texts: readonly string[]): void {
  for (const text of texts) {
    const chunks = split(text);
    for (let i = 0; i < 5; i++) streamIncremental(chunks);
    for (let i = 0; i < 20; i++) parseAssistantMessageV2(text);
  }
  timeBaseline(split(texts[0] ?? "").slice(0, 1000));
}

// ---- a realistic answer, deterministic ----

function buildAnswer(target: number): string {
  const rnd = prng(target);
  const parts: string[] = [];
  let size = 0;
  for (let n = 0; size < target; n++) {
    const piece = n % 3 === 2 ? replaceCall(rnd, n) : n % 3 === 1 ? writeCall(rnd, n) : prose(rnd, n);
    parts.push(piece);
    size += piece.length;
  }
  parts.push(prose(rnd, -1), "<attempt_completion>\n<result>\nAll files are written.\n</result>\n</attempt_completion>");
  return parts.join("\n\n");
}

function prose(rnd: () => number, n: number): string {
  const sentences = [
    "Let me look at how the store is wired before changing it.",
    "The `Session` class keeps a `Map<string, Entry>` and never evicts old entries, so memory grows.",
    "I'll add an LRU policy: when `size > limit`, drop the least recently used entry.",
    "Tests cover the eviction order and the case where `limit <= 0`.",
    "Note that `a < b && b > c` only holds when the clock is monotonic.",
  ];
  const lines: string[] = [`## Step ${n + 1}`];
  for (let i = 0; i < 6; i++) lines.push(sentences[Math.floor(rnd() * sentences.length)] as string);
  return lines.join(" ");
}

function writeCall(rnd: () => number, n: number): string {
  const lines: string[] = [`import { Entry, type Clock } from "./entry";`, ""];
  for (let i = 0; lines.join("\n").length < 6_000; i++) lines.push(...codeFunction(rnd, `${n}_${i}`));
  return `<write_to_file>\n<path>src/cache/store_${n}.ts</path>\n<content>\n${lines.join("\n")}\n</content>\n</write_to_file>`;
}

function replaceCall(rnd: () => number, n: number): string {
  const blocks: string[] = [];
  for (let i = 0; i < 4; i++) {
    const before = codeFunction(rnd, `${n}_${i}`).join("\n");
    const after = codeFunction(rnd, `${n}_${i}b`).join("\n");
    blocks.push(`------- SEARCH\n${before}\n=======\n${after}\n+++++++ REPLACE`);
  }
  return `<replace_in_file>\n<path>src/cache/session_${n}.ts</path>\n<diff>\n${blocks.join("\n")}\n</diff>\n</replace_in_file>`;
}

function codeFunction(rnd: () => number, id: string): string[] {
  const k = Math.floor(rnd() * 1000);
  return [
    `/** Evicts entries older than the limit (${k}). */`,
    `export function evict_${id}(entries: Map<string, Entry<number>>, limit: number, clock: Clock): number {`,
    `  let removed = 0;`,
    `  for (const [key, entry] of entries) {`,
    `    if (clock.now() - entry.touchedAt > limit && entry.pins <= 0) {`,
    `      entries.delete(key); // <${k}> stays untouched`,
    `      removed++;`,
    `    }`,
    `  }`,
    `  return removed >= ${k} ? removed : Math.max(0, removed);`,
    `}`,
    ``,
  ];
}

// ---- helpers ----

function split(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += CHUNK) out.push(text.slice(i, i + CHUNK));
  return out;
}

function time(f: () => unknown): number {
  const start = performance.now();
  f();
  return performance.now() - start;
}

function repeat(n: number, f: () => number): number[] {
  return Array.from({ length: n }, f);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function ms(x: number): string {
  return x >= 100 ? `${x.toFixed(0)} ms` : x >= 1 ? `${x.toFixed(2)} ms` : `${(x * 1000).toFixed(1)} us`;
}


process.on("exit", () => {
  if (sink === -1) console.log(sink); // keeps `touch` from being optimised away
});
