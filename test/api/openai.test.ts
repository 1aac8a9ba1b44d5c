/**
 * What only the OpenAI-compatible (chat.completions) handler does, through the real openai SDK
 * against the scripted model server: long-context prices and what it sends. What every provider
 * does (text, reasoning, tool calls, usage, faults, abort) is provider-wire.test.ts.
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

const OPENAI = providerAdapter("OpenAI chat.completions");
const handler = (overrides: Partial<ApiConfiguration> = {}) => OPENAI.handler(server, overrides);

const HELLO: ApiMessage[] = [{ role: "user", content: "hello" }];

function lastBody(): Record<string, unknown> {
  const request = server.requests.at(-1);
  if (!request) throw new Error("the server received no request");
  return request.body;
}

describe("OpenAI answers", () => {
  it("prices GPT-6.2 Sol at its rates, and a prompt past 272K at the long-context rates", async () => {
    server.enqueue({ text: "short", usage: { inputTokens: 10_000, outputTokens: 2_000, cacheReadTokens: 50_000 } });
    const short = totalUsage((await drain(handler({ modelId: "gpt-6.2-sol" }).createMessage("", HELLO))).chunks);
    expect(short.totalCost).toBeCloseTo((10_000 * 2 + 2_000 * 10 + 50_000 * 0.1) / 1e6, 10);
    server.enqueue({ text: "long", usage: { inputTokens: 100_000, outputTokens: 2_000, cacheReadTokens: 200_000 } });
    const long = totalUsage((await drain(handler({ modelId: "gpt-6.2-sol" }).createMessage("", HELLO))).chunks);
    // Input and cached input doubled, output 1.5x, for the whole request.
    expect(long.totalCost).toBeCloseTo((100_000 * 4 + 2_000 * 15 + 200_000 * 0.2) / 1e6, 10);
  });
});

describe("what the OpenAI handler sends", () => {
  const SYSTEM = "You are Tandem, a coding agent.";
  const TOOLS: ToolSpec[] = [
    {
      name: "read_file",
      description: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ];

  it("sends a bearer key, the system prompt first, usage in the stream and temperature 0", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler().createMessage(SYSTEM, HELLO, TOOLS));
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers["authorization"]).toBe("Bearer sk-openai-test-key");
    expect(request?.body).toMatchObject({
      model: "gpt-4.1",
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: "hello" },
      ],
      tools: [{ type: "function", function: { name: "read_file", description: "Read a file", parameters: TOOLS[0]?.inputSchema } }],
    });
  });

  it("sends a placeholder key to a local server when none is set", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ apiKey: undefined, modelId: "qwen2.5-coder:7b" }).createMessage("", HELLO));
    expect(server.requests[0]?.headers["authorization"]).toBe("Bearer not-needed");
  });

  // Only models known to accept a temperature get one; reasoning models refuse it at their default effort.
  it.each([
    ["gpt-4.1", 0],
    ["gpt-4o-mini-2024-07-18", 0],
    ["gpt-6.2-sol", undefined],
    ["openai/gpt-6-luna", undefined],
    ["deepseek-v4-pro", undefined],
    ["qwen2.5-coder:7b", undefined],
  ])("%s gets temperature %s and no reasoning parameters", async (model, temperature) => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: model, thinkingBudgetTokens: 4096 }).createMessage("", HELLO));
    const body = lastBody();
    expect(body.model).toBe(model);
    expect(body.temperature).toEqual(temperature);
    for (const key of ["reasoning_effort", "thinking", "max_tokens"]) expect(body, key).not.toHaveProperty(key);
  });

  it("asks for the default model, GPT-6.2 Sol, when none is set", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: undefined }).createMessage("", HELLO));
    expect(lastBody().model).toBe("gpt-6.2-sol");
    expect(lastBody()).not.toHaveProperty("temperature");
  });

  it("converts tool use, tool results and images, and drops thinking", async () => {
    server.enqueue({ text: "ok" });
    const history: ApiMessage[] = [
      { role: "user", content: "first question" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan", signature: "sig-A" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "Let me read it." },
          { type: "tool_use", id: "call_1", name: "read_file", input: { path: "a.ts" } },
          { type: "tool_use", id: "call_2", name: "take_screenshot", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "call_1", content: "file body" },
          {
            type: "tool_result",
            toolUseId: "call_2",
            content: [
              { type: "text", text: "screenshot taken" },
              { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" },
            ],
          },
          { type: "text", text: "what now?" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "Noted." }] },
      { role: "user", content: [{ type: "text", text: "part one" }, { type: "text", text: "part two" }] },
    ];
    await drain(handler().createMessage(SYSTEM, history));
    expect(lastBody().messages).toEqual([
      { role: "system", content: SYSTEM },
      { role: "user", content: "first question" },
      {
        role: "assistant",
        content: "Let me read it.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.ts"}' } },
          { id: "call_2", type: "function", function: { name: "take_screenshot", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "file body" },
      { role: "tool", tool_call_id: "call_2", content: "screenshot taken\n(1 image(s) attached in the next message)" },
      {
        role: "user",
        content: [
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          { type: "text", text: "what now?" },
        ],
      },
      { role: "assistant", content: "Noted." },
      { role: "user", content: "part one\n\npart two" },
    ]);
  });
});

describe("a server that echoes the key", () => {
  it("gets [key] in the error the chat shows, not the key", async () => {
    const { createServer } = await import("node:http");
    const echo = createServer((req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${String(req.headers.authorization).replace(/^Bearer /, "")}.`, type: "invalid_request_error" } }));
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    try {
      const port = (echo.address() as { port: number }).port;
      const key = "sk-echoed-secret-0123456789";
      const api = (await import("../../src/api/index.js")).buildApiHandler({ provider: "openai", apiKey: key, baseUrl: `http://127.0.0.1:${port}/v1`, modelId: "gpt-4.1" });
      const result = await drain(api.createMessage("", HELLO));
      const error = expectApiError(result, "auth");
      expect(error.message).toContain("Incorrect API key provided: [key].");
      expect(error.message).not.toContain(key);
      expect(error.status).toBe(401);
    } finally {
      await new Promise((resolve) => echo.close(resolve));
    }
  });
});
