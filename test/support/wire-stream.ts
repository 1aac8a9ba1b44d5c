/**
 * Helpers shared by the wire protocols of the scripted model server: a response sink
 * that stops writing once the client has gone, chunking, ids and token estimates.
 */
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { AnswerTurn, ScriptedUsage } from "./script.js";

/** Wraps one streaming response; every write is a no-op once the client has disconnected. */
export class StreamSink {
  private closed = false;

  constructor(private readonly res: ServerResponse) {
    // "close" fires both when we end the response and when the client drops it.
    res.on("close", () => {
      this.closed = true;
    });
  }

  /** True while the client is still listening. */
  get alive(): boolean {
    return !this.closed && !this.res.destroyed && !this.res.writableEnded;
  }

  /** Sends the status line and headers at once, so the client sees the stream open. */
  open(contentType: string, headers: Record<string, string> = {}): void {
    this.res.writeHead(200, {
      "content-type": contentType,
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...headers,
    });
    this.res.flushHeaders();
  }

  write(raw: string): void {
    if (this.alive) this.res.write(raw);
  }

  async pause(ms: number): Promise<void> {
    if (ms > 0 && this.alive) await sleep(ms);
  }

  end(): void {
    if (this.alive) this.res.end();
  }

  /** Drops the TCP connection without finishing the HTTP response. */
  destroy(): void {
    this.res.socket?.destroy();
    this.res.destroy();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Splits text into pieces of `size` code points (never halving a surrogate pair). */
export function splitIntoChunks(text: string, size: number | undefined): string[] {
  const step = Math.max(1, Math.floor(size ?? DEFAULT_CHUNK_SIZE));
  const codePoints = Array.from(text);
  const chunks: string[] = [];
  for (let i = 0; i < codePoints.length; i += step) {
    chunks.push(codePoints.slice(i, i + step).join(""));
  }
  return chunks;
}

export const DEFAULT_CHUNK_SIZE = 16;

/** The text mid-stream faults stream before failing, when the script gives none. */
export const DEFAULT_FAULT_TEXT = "Let me look at the project files first, then";

export function randomId(prefix: string, length = 24): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = randomBytes(length);
  let id = prefix;
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return id;
}

/** Rough token count, as the brief of the server says: a quarter of the characters. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Token counts for one answer, scripted or estimated. */
export interface ResolvedUsage {
  /** Uncached input tokens (Anthropic's meaning of input_tokens). */
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

export function resolveUsage(
  scripted: ScriptedUsage | undefined,
  requestBody: Record<string, unknown>,
  streamedChars: number,
): ResolvedUsage {
  return {
    input: scripted?.inputTokens ?? estimateTokens(JSON.stringify(requestBody).length),
    output: scripted?.outputTokens ?? estimateTokens(streamedChars),
    cacheWrite: scripted?.cacheWriteTokens ?? 0,
    cacheRead: scripted?.cacheReadTokens ?? 0,
  };
}

/** Writes a complete JSON response (errors, control routes). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Characters an answer streams, for the default output-token estimate. */
export function answerChars(turn: AnswerTurn): number {
  const tools = (turn.toolCalls ?? []).reduce((n, call) => n + call.name.length + JSON.stringify(call.input).length, 0);
  return (turn.thinking?.text.length ?? 0) + (turn.text?.length ?? 0) + tools;
}
