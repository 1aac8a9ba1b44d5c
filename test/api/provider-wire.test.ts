/**
 * The wire suite every provider handler must pass, run once per entry of provider-adapters.ts:
 * the real SDK of each provider (@anthropic-ai/sdk, openai) against the scripted model server.
 * Answers (text, reasoning, native tool calls, usage and cost, empty, stop reasons), faults
 * (status errors, mid-stream error, dropped connection, stall, truncation, context overflow,
 * rate limits, a refused connection) and abort. What only one provider does is in its own file.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiMessage } from "../../src/api/types.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { PROVIDER_ADAPTERS, type FaultCase } from "./provider-adapters.js";
import { assembleToolCalls, drain, expectApiError, timeToSettle, totalUsage } from "./stream-helpers.js";

const HELLO: ApiMessage[] = [{ role: "user", content: "hello" }];

/** Faults that come out the same on every provider's wire. */
const COMMON_FAULTS: readonly FaultCase[] = [
  { turn: { kind: "fault", fault: "server_error" }, kind: "server_error", status: 500 },
  { turn: { kind: "fault", fault: "auth" }, kind: "auth", status: 401 },
  { turn: { kind: "fault", fault: "bad_request" }, kind: "bad_request", status: 400 },
  { turn: { kind: "fault", fault: "drop_connection", text: "partial answer" }, kind: "connection_lost" },
  { turn: { kind: "fault", fault: "truncated", text: "partial answer" }, kind: "truncated" },
  { turn: { kind: "fault", fault: "stall", text: "partial answer" }, kind: "stalled" },
];

describe.each(PROVIDER_ADAPTERS.map((adapter) => [adapter.name, adapter] as const))("%s on the wire", (_name, adapter) => {
  let server: ScriptedModelServer;
  const handler = adapter.handler;

  beforeEach(async () => {
    server = await startScriptedModelServer();
  });

  afterEach(async () => {
    await server.close();
  });

  describe("answers", () => {
    it("streams text in order and ends normally", async () => {
      server.enqueue({ text: "Hello from the scripted model.", chunkSize: 3 });
      const result = await drain(handler(server).createMessage("be brief", HELLO));
      expect(result.error).toBeUndefined();
      expect(result.text).toBe("Hello from the scripted model.");
      expect(result.chunks.filter((c) => c.type === "text").length).toBeGreaterThan(5);
    });

    it("yields reasoning before the text", async () => {
      const { modelId, turn, expected } = adapter.reasoning;
      server.enqueue(turn);
      const result = await drain(handler(server, modelId ? { modelId } : {}).createMessage("", HELLO));
      expect(result.error).toBeUndefined();
      expect(result.reasoning).toBe(expected);
      expect(result.text).toBe(turn.text);
      expect(result.chunks.findLastIndex((c) => c.type === "reasoning")).toBeLessThan(result.chunks.findIndex((c) => c.type === "text"));
    });

    it("yields native tool call fragments that assemble into whole calls with their ids, names and JSON input", async () => {
      const input = { path: "src/app.ts", options: { lines: [1, 40], note: 'ünïcödé "quoted"' } };
      const [first, second] = adapter.toolCallIds;
      server.enqueue({
        text: "Reading two files.",
        toolCalls: [
          { id: first, name: "read_file", input },
          { id: second, name: "list_files", input: { path: "." } },
        ],
        chunkSize: 4,
      });
      const result = await drain(handler(server).createMessage("", HELLO));
      expect(result.error).toBeUndefined();
      expect(result.text).toBe("Reading two files.");
      // Indexes may be output positions (the Responses API counts the message too): keep the calls.
      const calls = assembleToolCalls(result.chunks).filter((call) => call !== undefined);
      expect(calls.map((c) => [c.id, c.name])).toEqual([
        [first, "read_file"],
        [second, "list_files"],
      ]);
      expect(JSON.parse(calls[0]?.arguments ?? "")).toEqual(input);
      expect(JSON.parse(calls[1]?.arguments ?? "")).toEqual({ path: "." });
      // Streamed in fragments, not whole, where the provider streams them so (Gemini sends each call whole).
      const fragments = result.chunks.filter((c) => c.type === "tool_calls").length;
      if (adapter.wholeToolCalls) expect(fragments).toBe(2);
      else expect(fragments).toBeGreaterThan(4);
    });

    it("passes XML tool calls in the text through as text", async () => {
      const xml = "Let me look.\n<read_file>\n<path>src/app.ts</path>\n</read_file>";
      server.enqueue({ text: xml, chunkSize: 5 });
      const result = await drain(handler(server).createMessage("", HELLO));
      expect(result.error).toBeUndefined();
      expect(result.text).toBe(xml);
      expect(assembleToolCalls(result.chunks)).toEqual([]);
    });

    it("sends an image the person attached, in the provider's own shape", async () => {
      // A 1x1 PNG.
      const data = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
      const withImage: ApiMessage[] = [{ role: "user", content: [{ type: "text", text: "what is this?" }, { type: "image", mediaType: "image/png", data }] }];
      server.enqueue({ text: "A dot." });
      const result = await drain(handler(server).createMessage("", withImage));
      expect(result.error).toBeUndefined();
      expect(result.text).toBe("A dot.");
      expect(adapter.imagesIn(server.requests[0]?.body ?? {})).toEqual([{ mediaType: "image/png", data }]);
    });

    it("reports usage with cache tokens and the cost at the model's prices", async () => {
      server.enqueue({ text: "priced", usage: adapter.usage.scripted });
      const usage = totalUsage((await drain(handler(server).createMessage("", HELLO))).chunks);
      expect(usage).toMatchObject(adapter.usage.reported);
      expect(usage.totalCost).toBeCloseTo(adapter.usage.cost, 10);
    });

    it("ends normally on an empty answer, with nothing but usage and its stop", async () => {
      server.enqueue({ kind: "fault", fault: "empty" });
      const result = await drain(handler(server).createMessage("", HELLO));
      expect(result.error).toBeUndefined();
      expect(result.chunks.length).toBeGreaterThan(0);
      const rest = result.chunks.filter((c) => c.type !== "usage");
      expect(rest.every((c) => c.type === "stop")).toBe(true);
      if (adapter.emptyAnswer) expect(rest).toEqual(adapter.emptyAnswer);
    });

    it.each(adapter.stopReasons)("reports the scripted stop reason %s as %s", async (scripted, expected) => {
      server.enqueue({ text: "cut sho", stopReason: scripted });
      const result = await drain(handler(server).createMessage("", HELLO));
      expect(result.chunks.filter((c) => c.type === "stop")).toEqual([{ type: "stop", reason: expected }]);
    });
  });

  describe("faults", () => {
    // A provider that refuses credentials with another status (Bedrock and Gemini: 403, 400) says so.
    const common = COMMON_FAULTS.map((c) => (c.kind === "auth" && adapter.authStatus !== undefined ? { ...c, status: adapter.authStatus } : c));
    const faults = [...common, ...adapter.faults].map((c) => ({ ...c, fault: c.turn.flavor ? `${c.turn.fault} (${c.turn.flavor})` : c.turn.fault }));
    it.each(faults)("$fault -> $kind, after exactly one request", async ({ turn, kind, status }) => {
      server.enqueue(turn, { text: "a retry would get this" });
      // Only the stall waits out the idle timer; the other faults get a long one so a busy machine's
      // slow first byte cannot pass for a stall.
      const streamIdleTimeoutMs = turn.fault === "stall" ? 300 : 10_000;
      const result = await drain(handler(server, { streamIdleTimeoutMs }).createMessage("", HELLO));
      const error = expectApiError(result, kind);
      expect(error.status).toBe(status);
      if (status !== undefined) expect(error.requestId).toMatch(/^req_/);
      // A dropped socket may take its last unread bytes with it, so only a prefix is certain.
      if (turn.text) expect(turn.text.startsWith(result.text)).toBe(true);
      if (turn.text && turn.fault !== "drop_connection") expect(result.text).toBe(turn.text);
      expect(server.requests).toHaveLength(1);
    });

    it("rate_limit -> rate_limited with the server's retry-after, after exactly one request", async () => {
      server.enqueue({ kind: "fault", fault: "rate_limit", retryAfter: 7 }, { text: "a retry would get this" });
      const error = expectApiError(await drain(handler(server).createMessage("", HELLO)), "rate_limited");
      expect(error.status).toBe(429);
      // Bedrock's throttling sends no retry-after: the Task's own backoff applies.
      expect(error.retryAfterSeconds).toBe(adapter.sendsRetryAfter === false ? undefined : 7);
      expect(error.retryable).toBe(true);
      expect(server.requests).toHaveLength(1);
    });

    it("a refused connection -> connection_lost", async () => {
      const closed = server;
      await closed.close();
      server = await startScriptedModelServer();
      const result = await drain(handler(closed).createMessage("", HELLO));
      expect(expectApiError(result, "connection_lost").message).toMatch(/could not connect/);
    });
  });

  describe("abort", () => {
    it("abort() during a stream ends it with `aborted` within a second", async () => {
      server.enqueue({ text: "x".repeat(200), chunkSize: 1, delayMs: 50 });
      const api = handler(server);
      let abortedAt = 0;
      const result = await drain(api.createMessage("", HELLO), (chunk) => {
        if (chunk.type === "text" && abortedAt === 0) {
          abortedAt = performance.now();
          api.abort();
        }
      });
      expect(performance.now() - abortedAt).toBeLessThan(1000);
      expectApiError(result, "aborted");
      expect(result.text.length).toBeLessThan(200);
    });

    it("abort() during a stall ends it with `aborted` within a second", async () => {
      server.enqueue({ kind: "fault", fault: "stall", text: "waiting" });
      const api = handler(server); // the default 60 s idle timeout: only the abort can end this
      let abortedAt: number | undefined;
      const result = await drain(api.createMessage("", HELLO), (chunk) => {
        if (chunk.type === "text" && abortedAt === undefined) {
          abortedAt = Number.NaN;
          setTimeout(() => {
            abortedAt = performance.now();
            api.abort();
          }, 100);
        }
      });
      expect(abortedAt).toBeGreaterThan(0);
      expect(performance.now() - (abortedAt ?? 0)).toBeLessThan(1000);
      expectApiError(result, "aborted");
    });

    it("abort() before iteration starts sends nothing", async () => {
      server.enqueue({ text: "never sent" });
      const api = handler(server);
      const stream = api.createMessage("", HELLO);
      api.abort();
      expectApiError(await drain(stream), "aborted");
      expect(server.requests).toHaveLength(0);
    });

    it("leaving the loop early ends the request, and the handler serves the next one", async () => {
      // The whole answer takes 10 s: leaving early must not wait for it (the bound is loose for a busy machine).
      server.enqueue({ text: "y".repeat(100), chunkSize: 1, delayMs: 100 }, { text: "second answer" });
      const api = handler(server);
      const elapsed = await timeToSettle(
        (async () => {
          for await (const chunk of api.createMessage("", HELLO)) {
            if (chunk.type === "text") break;
          }
        })(),
      );
      expect(elapsed).toBeLessThan(5_000);
      expect((await drain(api.createMessage("", HELLO))).text).toBe("second answer");
    });
  });
});
