import type { ApiStreamChunk, ApiStreamUsageChunk } from "../../api/types";

/** What the loop takes in stream order: everything but usage (the stop reason comes last). */
export type ContentChunk = Exclude<ApiStreamChunk, ApiStreamUsageChunk>;

export interface StreamChunkHandlers {
  /** Called the moment usage arrives, ahead of any content still waiting in the buffer. */
  onUsage(chunk: ApiStreamUsageChunk): void;
  /** Stops the request in flight (the provider stream then ends with an aborted error). */
  abortRequest(): void;
}

/**
 * Reads the provider stream ahead of the agent loop into a bounded buffer and hands content
 * out one chunk at a time: reasoning, text, native tool-call fragments and the stop reason to the loop, usage
 * straight to its handler. When the buffer is full the reader stops pulling, so a slow consumer
 * pushes back on the HTTP stream instead of growing memory.
 */
export class StreamChunkCoordinator {
  private readonly buffer: ContentChunk[] = [];
  private head = 0;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private stopped = false;
  private wakeConsumer: (() => void) | undefined;
  private wakeReader: (() => void) | undefined;
  private reading: Promise<void> | undefined;
  private returned: unknown;

  constructor(
    private readonly stream: AsyncGenerator<ApiStreamChunk, unknown, undefined>,
    private readonly handlers: StreamChunkHandlers,
    readonly maxBufferedChunks = 64,
  ) {}

  /** What the stream returned when it ended by itself (attemptApiRequest's "stopped"). */
  get returnValue(): unknown {
    return this.returned;
  }

  /** Number of content chunks read but not yet taken. */
  get buffered(): number {
    return this.buffer.length - this.head;
  }

  /** The next content chunk; undefined when the stream ended; throws the stream's error. */
  async next(): Promise<ContentChunk | undefined> {
    this.reading ??= this.read();
    for (;;) {
      if (this.head < this.buffer.length) {
        const chunk = this.buffer[this.head++] as ContentChunk;
        if (this.head === this.buffer.length) {
          this.buffer.length = 0;
          this.head = 0;
        }
        this.wake("reader");
        return chunk;
      }
      if (this.ended) {
        if (this.failure && !this.stopped) throw this.failure.error;
        return undefined;
      }
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
    }
  }

  /** Stops reading and aborts the request if it is still open. Safe to call more than once. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (!this.ended) this.handlers.abortRequest();
    this.wake("reader");
    await this.reading;
  }

  private async read(): Promise<void> {
    try {
      while (!this.stopped) {
        if (this.buffered >= this.maxBufferedChunks) {
          await new Promise<void>((resolve) => (this.wakeReader = resolve));
          continue;
        }
        const next = await this.stream.next();
        if (next.done) {
          this.returned = next.value;
          break;
        }
        const value = next.value;
        if (value.type === "usage") this.handlers.onUsage(value);
        else this.buffer.push(value);
        this.wake("consumer");
      }
    } catch (error) {
      this.failure = { error };
    } finally {
      this.ended = true;
      if (this.stopped) await this.stream.return(undefined).catch(() => undefined);
      this.wake("consumer");
    }
  }

  private wake(who: "consumer" | "reader"): void {
    const resolve = who === "consumer" ? this.wakeConsumer : this.wakeReader;
    if (who === "consumer") this.wakeConsumer = undefined;
    else this.wakeReader = undefined;
    resolve?.();
  }
}
