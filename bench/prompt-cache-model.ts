/**
 * A model of Anthropic's prompt cache, for the benches (cache.bench.ts, context.bench.ts):
 *
 * - a request's prompt is its tools, then its system blocks, then each message's blocks, in order;
 *   a block with `cache_control` is a breakpoint, and the prefix up to it is written to the cache
 *   (1.25x the input price) unless already there;
 * - a request reads from the cache the longest prefix that an earlier request wrote, found at one of
 *   its own breakpoints or up to 20 blocks before one (0.1x); what follows its last breakpoint is
 *   plain input (1x).
 *
 * The ideal is the same conversation appended to only: each request reads all of the one before.
 * Tokens are characters / 4.
 */
import { createHash, type Hash } from "node:crypto";

/** How far before a breakpoint the cache looks for an earlier write (Anthropic's documented 20 blocks). */
const LOOKBACK = 20;
export const PRICE = { read: 0.1, write: 1.25, input: 1 };
const tokens = (chars: number) => chars / 4;

/** One block of a prompt: its text as sent (without the breakpoint mark) and whether it is a breakpoint. */
export interface Unit {
  readonly text: string;
  readonly breakpoint: boolean;
}

/** The prompt of an Anthropic Messages request body in cache order: tools, system, messages' blocks. */
export function promptOf(requestBody: unknown): Unit[] {
  const body = requestBody as { tools?: unknown[]; system?: unknown[] | string; messages?: { role: string; content: unknown }[] };
  const unit = (value: unknown, role = ""): Unit => {
    const record = value as { cache_control?: unknown };
    const { cache_control: mark, ...rest } = typeof value === "object" && value !== null ? (record as Record<string, unknown>) : { value };
    return { text: `${role}${JSON.stringify(rest)}`, breakpoint: mark !== undefined };
  };
  const units: Unit[] = (body.tools ?? []).map((tool) => unit(tool));
  for (const block of Array.isArray(body.system) ? body.system : body.system ? [body.system] : []) units.push(unit(block));
  for (const message of body.messages ?? []) {
    const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as unknown[]);
    // A new message starts with its role, so the same blocks under another role do not match.
    blocks.forEach((block, i) => units.push(unit(block, i === 0 ? `${message.role}:` : "")));
  }
  return units;
}

/** Digests of every prefix of `units` (index i: the first i + 1 units), and their lengths in characters. */
function prefixes(units: readonly Unit[]): { digests: string[]; chars: number[] } {
  const hash: Hash = createHash("sha256");
  const digests: string[] = [];
  const chars: number[] = [];
  let length = 0;
  for (const { text } of units) {
    hash.update(text).update("\u0000");
    digests.push(hash.copy().digest("base64"));
    chars.push((length += text.length));
  }
  return { digests, chars };
}

export interface CacheBill {
  /** Input cost in token-units (a token at the input price is 1). */
  readonly cost: number;
  /** The same prompts if each had read all of the one before. */
  readonly ideal: number;
  /** Characters read from and written to the cache. */
  readonly readChars: number;
  readonly writeChars: number;
  /** The requests that changed an earlier message of the request before them. */
  readonly changed: readonly string[];
}

/** What a series of prompts costs through the cache. */
export function cacheBill(prompts: readonly Unit[][]): CacheBill {
  const written = new Set<string>();
  let cost = 0;
  let ideal = 0;
  let readChars = 0;
  let writeChars = 0;
  const changed: string[] = [];
  let previousChars = 0;
  prompts.forEach((units, i) => {
    const { digests, chars } = prefixes(units);
    const breakpoints = units.flatMap((u, index) => (u.breakpoint ? [index] : []));
    const last = breakpoints.at(-1) ?? -1;
    // The longest prefix an earlier request wrote, at a breakpoint or up to LOOKBACK blocks before one.
    let readTo = -1;
    for (const b of breakpoints) {
      for (let p = b; p >= Math.max(0, b - LOOKBACK); p--) if (written.has(digests[p] as string)) readTo = Math.max(readTo, p);
    }
    const total = chars.at(-1) ?? 0;
    const read = readTo >= 0 ? (chars[readTo] as number) : 0;
    const cachedTo = last >= 0 ? (chars[last] as number) : 0;
    const write = Math.max(0, cachedTo - read);
    cost += tokens(read) * PRICE.read + tokens(write) * PRICE.write + tokens(total - Math.max(read, cachedTo)) * PRICE.input;
    // Appended to only: all of the previous request is read, the rest up to the last breakpoint written.
    const idealRead = Math.min(previousChars, cachedTo);
    ideal += tokens(idealRead) * PRICE.read + tokens(cachedTo - idealRead) * PRICE.write + tokens(total - cachedTo) * PRICE.input;
    for (const b of breakpoints) written.add(digests[b] as string);
    readChars += read;
    writeChars += write;
    // An earlier message changed: the previous request is not a prefix of this one.
    if (i > 0) {
      const before = prompts[i - 1] as Unit[];
      const at = before.findIndex((u, k) => units[k]?.text !== u.text);
      if (at >= 0) changed.push(`request ${i + 1} (block ${at + 1} of ${before.length})`);
    }
    previousChars = total;
  });
  return { cost, ideal, readChars, writeChars, changed };
}
