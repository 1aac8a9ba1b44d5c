import { describe, expect, it } from "vitest";
import type { ApiStream, ApiStreamChunk, ApiStreamUsageChunk } from "../../api/types";
import { StreamChunkCoordinator } from "./stream-chunk-coordinator";

/** A provider stream of `n` text chunks with usage first and last; counts how far it was read. */
function countingStream(n: number): { stream: ApiStream; pulled: () => number } {
  let pulled = 0;
  async function* generate(): ApiStream {
    pulled++;
    yield { type: "usage", inputTokens: 10, outputTokens: 0 };
    for (let i = 0; i < n; i++) {
      pulled++;
      yield { type: "text", text: `t${i} ` };
    }
    pulled++;
    yield { type: "usage", inputTokens: 0, outputTokens: 5 };
  }
  return { stream: generate(), pulled: () => pulled };
}

// One turn of the event loop: every microtask the reader queued has run by then.
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("StreamChunkCoordinator", () => {
  it("hands out reasoning, text and tool fragments in order and usage to its handler", async () => {
    const chunks: ApiStreamChunk[] = [
      { type: "reasoning", reasoning: "think" },
      { type: "usage", inputTokens: 3, outputTokens: 0 },
      { type: "text", text: "hi" },
      { type: "tool_calls", index: 0, id: "c1", name: "read_file", argumentsDelta: "{}" },
      { type: "usage", inputTokens: 0, outputTokens: 2 },
    ];
    async function* source(): ApiStream {
      yield* chunks;
    }
    const usage: ApiStreamUsageChunk[] = [];
    const coordinator = new StreamChunkCoordinator(source(), { onUsage: (u) => usage.push(u), abortRequest: () => {} });
    const seen: string[] = [];
    for (let c = await coordinator.next(); c; c = await coordinator.next()) seen.push(c.type);
    expect(seen).toEqual(["reasoning", "text", "tool_calls"]);
    expect(usage.map((u) => u.outputTokens)).toEqual([0, 2]);
  });

  it("stops reading when its buffer is full, so a stalled consumer does not grow memory", async () => {
    const { stream, pulled } = countingStream(10_000);
    const coordinator = new StreamChunkCoordinator(stream, { onUsage: () => {}, abortRequest: () => {} }, 16);
    await coordinator.next();
    await settle();
    expect(coordinator.buffered).toBeLessThanOrEqual(16);
    expect(pulled()).toBeLessThanOrEqual(16 + 3);
    // Taking chunks lets the reader go on.
    for (let i = 0; i < 8; i++) await coordinator.next();
    await settle();
    expect(pulled()).toBeGreaterThan(16);
    expect(pulled()).toBeLessThanOrEqual(16 + 8 + 3);
    await coordinator.stop();
  });

  it("accounts usage that arrives while earlier content still waits in the buffer", async () => {
    async function* source(): ApiStream {
      yield { type: "text", text: "a" };
      yield { type: "text", text: "b" };
      yield { type: "usage", inputTokens: 7, outputTokens: 1 };
    }
    const usage: number[] = [];
    const coordinator = new StreamChunkCoordinator(source(), { onUsage: (u) => usage.push(u.inputTokens), abortRequest: () => {} });
    await coordinator.next();
    await settle();
    expect(usage).toEqual([7]);
    expect(coordinator.buffered).toBe(1);
  });

  it("rethrows the stream's failure after the content that came before it", async () => {
    async function* source(): ApiStream {
      yield { type: "text", text: "partial" };
      throw new Error("connection lost");
    }
    const coordinator = new StreamChunkCoordinator(source(), { onUsage: () => {}, abortRequest: () => {} });
    expect(await coordinator.next()).toEqual({ type: "text", text: "partial" });
    await expect(coordinator.next()).rejects.toThrow("connection lost");
  });

  it("aborts the request when stopped before the stream ended", async () => {
    let aborted = false;
    let release: () => void = () => {};
    async function* source(): ApiStream {
      yield { type: "text", text: "first" };
      await new Promise<void>((resolve) => (release = resolve));
      throw new Error("aborted by the request");
    }
    const coordinator = new StreamChunkCoordinator(source(), {
      onUsage: () => {},
      abortRequest: () => {
        aborted = true;
        release();
      },
    });
    await coordinator.next();
    await coordinator.stop();
    expect(aborted).toBe(true);
    expect(await coordinator.next()).toBeUndefined();
  });
});
