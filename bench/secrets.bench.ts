/**
 * What scrubbing known secrets costs a request: the real SecretScrubber over 1 MB of command
 * output (source lines, with an AWS key id and one known value inside), with 60 known values
 * (a .env's, a key file's lines, the environment's). The baseline is one toLowerCase of the
 * same text (a pass that copies it), measured in the same run; the budget is 5 ms per 1 MB. `npm run bench secrets`.
 */
import { performance } from "node:perf_hooks";
import { SecretScrubber } from "../src/core/secrets/secret-scrubber";
import type { KnownSecret } from "../src/core/secrets/known-secrets";

const RUNS = 30;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function time(fn: () => unknown): number {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

export function run(): void {
  const known: KnownSecret[] = Array.from({ length: 60 }, (_, i) => ({ value: `s3cr3t-${i}-${(i * 7919).toString(36)}Qx9LmZ`, source: `KEY_${i} in .env` }));
  const line = "  const total = items.reduce((sum, item) => sum + item.price * item.count, 0); // 2024-05-01 build 1234\n";
  let text = "";
  while (text.length < 1_000_000) text += line;
  text = `${text.slice(0, 400_000)}AKIAABCDEFGHIJKLMNOP ${known[17]?.value}\n${text.slice(400_000)}`;
  const scrubber = new SecretScrubber(known);
  const once = scrubber.scrub(text);
  const clean = time(() => new SecretScrubber(known).scrub(line.repeat(10_000)));
  const dirty = time(() => new SecretScrubber(known).scrub(text));
  const baseline = time(() => text.toLowerCase());
  console.log(`scrubbing ${(text.length / 1e6).toFixed(2)} MB with ${known.length} known values (median of ${RUNS}):`);
  console.log(`  with two secrets in it: ${dirty.toFixed(2)} ms (${(dirty / baseline).toFixed(1)}x one toLowerCase of the text, ${baseline.toFixed(2)} ms); removed: ${once.removed.join(", ")}`);
  console.log(`  clean text of the same size: ${clean.toFixed(2)} ms`);
  console.log(`  ${dirty <= 5 ? "PASS" : "MISS"}: under 5 ms per 1 MB`);
}
