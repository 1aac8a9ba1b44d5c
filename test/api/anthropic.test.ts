/**
 * What only the Anthropic handler does, through the real @anthropic-ai/sdk against the scripted
 * model server: thinking signatures and redacted thinking, long-prompt prices, and what it sends.
 * What every provider does (text, tool calls, usage, faults, abort) is provider-wire.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiConfiguration } from "../../src/api/index.js";
import type { ApiMessage, ToolSpec } from "../../src/api/types.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { providerAdapter } from "./provider-adapters.js";
import { drain, expectApiError, totalUsage } from "./stream-helpers.js";

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer();
});

afterEach(async () => {
  await server.close();
});

const ANTHROPIC = providerAdapter("Anthropic");
const handler = (overrides: Partial<ApiConfiguration> = {}) => ANTHROPIC.handler(server, overrides);

const HELLO: ApiMessage[] = [{ role: "user", content: "hello" }];

function lastBody(): Record<string, unknown> {
  const request = server.requests.at(-1);
  if (!request) throw new Error("the server received no request");
  return request.body;
}

describe("Anthropic answers", () => {
  it("yields thinking's signature after its reasoning, before the text", async () => {
    server.enqueue({ thinking: { text: "Consider the files first.", signature: "sig-abc123" }, text: "Done." });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.reasoning).toBe("Consider the files first.");
    const signatures = result.chunks.flatMap((c) => (c.type === "reasoning" && c.signature ? [c.signature] : []));
    expect(signatures).toEqual(["sig-abc123"]);
    const lastReasoning = result.chunks.findLastIndex((c) => c.type === "reasoning");
    const firstText = result.chunks.findIndex((c) => c.type === "text");
    expect(lastReasoning).toBeLessThan(firstText);
  });

  it("passes redacted thinking through as opaque data", async () => {
    server.enqueue({ redactedThinking: "EmwKAhgBEgy3va3pzix/LafPsn4a", text: "ok" });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    const redacted = result.chunks.filter((c) => c.type === "reasoning" && c.redactedData !== undefined);
    expect(redacted).toEqual([{ type: "reasoning", reasoning: "", redactedData: "EmwKAhgBEgy3va3pzix/LafPsn4a" }]);
  });

  it("prices a whole Haiku 5.5 answer, output included, at the long-prompt rates once the prompt passes 100K", async () => {
    server.enqueue({ text: "long", usage: { inputTokens: 20_000, outputTokens: 1_000, cacheWriteTokens: 5_000, cacheReadTokens: 90_000 } });
    const usage = totalUsage((await drain(handler({ modelId: "claude-haiku-5-5" }).createMessage("", HELLO))).chunks);
    expect(usage.totalCost).toBeCloseTo((20_000 * 0.5 + 1_000 * 2.5 + 5_000 * 0.625 + 90_000 * 0.05) / 1e6, 10);
    server.enqueue({ text: "short", usage: { inputTokens: 20_000, outputTokens: 1_000, cacheReadTokens: 60_000 } });
    const short = totalUsage((await drain(handler({ modelId: "claude-haiku-5-5" }).createMessage("", HELLO))).chunks);
    expect(short.totalCost).toBeCloseTo((20_000 * 0.1 + 1_000 * 0.5 + 60_000 * 0.01) / 1e6, 10);
  });
});

describe("what the Anthropic handler sends", () => {
  const SYSTEM = "You are Tandem, a coding agent.";
  const TOOLS: ToolSpec[] = [
    {
      name: "read_file",
      description: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ];
  const HISTORY: ApiMessage[] = [
    { role: "user", content: "first question" },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "plan", signature: "sig-A" },
        { type: "thinking", thinking: "unsigned, from another provider" },
        { type: "redacted_thinking", data: "opaque" },
        { type: "text", text: "Let me read it." },
        { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.ts" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "toolu_1", content: "file body", isError: true },
        { type: "text", text: "and this screenshot" },
        { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" },
      ],
    },
    { role: "assistant", content: "Noted." },
    { role: "user", content: "second question" },
  ];
  const EPHEMERAL = { type: "ephemeral" };

  it("sends the key, the API version, the model and no retries' worth of requests", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler().createMessage(SYSTEM, HELLO));
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request?.path).toBe("/v1/messages");
    expect(request?.headers.authorization).toBe("Bearer sk-ant-test-key");
    expect(request?.headers["anthropic-version"]).toBe("2026-10-21");
    expect(request?.body).toMatchObject({ model: "claude-sonnet-5-5", max_tokens: 128_000, stream: true });
    expect(request?.body).not.toHaveProperty("thinking");
    expect(request?.body).not.toHaveProperty("temperature");
  });

  it("asks for the default model, Claude Sonnet 5.5, when none is set", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: undefined }).createMessage(SYSTEM, HELLO));
    expect(lastBody()).toMatchObject({ model: "claude-sonnet-5-5", max_tokens: 128_000 });
  });

  it("converts the history and marks the system prompt and the last two user messages for caching", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler().createMessage(SYSTEM, HISTORY, TOOLS));
    const body = lastBody();
    expect(body.system).toEqual([{ type: "text", text: SYSTEM, cache_control: EPHEMERAL }]);
    expect(body.tools).toEqual([{ name: "read_file", description: "Read a file", input_schema: TOOLS[0]?.inputSchema }]);
    expect(body.messages).toEqual([
      { role: "user", content: "first question" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan", signature: "sig-A" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "Let me read it." },
          { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.ts" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "file body", is_error: true },
          { type: "text", text: "and this screenshot" },
          {
            type: "image",
            source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
            cache_control: EPHEMERAL,
          },
        ],
      },
      { role: "assistant", content: "Noted." },
      { role: "user", content: [{ type: "text", text: "second question", cache_control: EPHEMERAL }] },
    ]);
  });

  it("sends no cache_control for a model without prompt caching", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: "some-proxy-model" }).createMessage(SYSTEM, HISTORY));
    expect(JSON.stringify(lastBody())).not.toContain("cache_control");
  });

  // What each kind of model gets: thinking per its mode, temperature only where it is accepted.
  it.each<{ model: string; budget?: number; thinking?: unknown; temperature?: number; maxTokens: number }>([
    // Manual extended thinking (Claude 4.5 and earlier): the budget as budget_tokens.
    { model: "claude-haiku-4-5", budget: 4096, thinking: { type: "enabled", budget_tokens: 4096 }, maxTokens: 64_000 },
    { model: "claude-haiku-4-5", temperature: 0, maxTokens: 64_000 },
    // Claude 4.6: adaptive, and a temperature while thinking is off.
    { model: "claude-sonnet-4-6", budget: 4096, thinking: { type: "adaptive" }, maxTokens: 128_000 },
    { model: "claude-sonnet-4-6", temperature: 0, maxTokens: 128_000 },
    // Claude 4.7+ and 5.x: adaptive only, never a temperature; without a budget the model's default.
    { model: "claude-opus-5-5", budget: 4096, thinking: { type: "adaptive" }, maxTokens: 128_000 },
    { model: "claude-sonnet-5-5", maxTokens: 128_000 },
    { model: "claude-opus-4-7", budget: 20_000, thinking: { type: "adaptive" }, maxTokens: 128_000 },
    // An unknown model: no thinking, no temperature, a modest output limit.
    { model: "some-proxy-model", budget: 4096, maxTokens: 8_192 },
  ])("$model with budget $budget: thinking $thinking, temperature $temperature", async (c) => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: c.model, thinkingBudgetTokens: c.budget }).createMessage(SYSTEM, HELLO));
    const body = lastBody();
    expect(body.max_tokens).toBe(c.maxTokens);
    expect(body.thinking).toEqual(c.thinking);
    expect(body.temperature).toEqual(c.temperature);
  });

  it("refuses an image type Anthropic does not accept, before sending anything", async () => {
    const messages: ApiMessage[] = [{ role: "user", content: [{ type: "image", mediaType: "image/bmp", data: "Qk0=" }] }];
    const error = expectApiError(await drain(handler().createMessage("", messages)), "bad_request");
    expect(error.message).toContain("image/bmp");
    expect(server.requests).toHaveLength(0);
  });

  it("reports a missing API key as an auth error without a request", async () => {
    const error = expectApiError(await drain(handler({ apiKey: undefined }).createMessage("", HELLO)), "auth");
    expect(error.message).toMatch(/API key/);
    expect(server.requests).toHaveLength(0);
  });
});
