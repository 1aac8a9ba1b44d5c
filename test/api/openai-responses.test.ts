/**
 * What only the OpenAI Responses API handler does, through the real openai SDK against the
 * scripted model server: reasoning summaries refused to an unverified organisation, long-context
 * prices, a cut-off answer's usage, what it sends, and OpenAI's words in a failed response. What
 * every provider does (text, tool calls, usage, faults, abort) is provider-wire.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiConfiguration } from "../../src/api/config.js";
import { toResponsesInput } from "../../src/api/providers/openai-responses-format.js";
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

const RESPONSES = providerAdapter("OpenAI Responses");
const handler = (overrides: Partial<ApiConfiguration> = {}) => RESPONSES.handler(server, overrides);

const HELLO: ApiMessage[] = [{ role: "user", content: "hello" }];

function lastBody(): Record<string, unknown> {
  const request = server.requests.at(-1);
  if (!request) throw new Error("the server received no request");
  return request.body;
}

describe("Responses API answers", () => {
  it("goes on without reasoning summaries when the organisation is not verified for them, and does not ask again", async () => {
    server.enqueue({ kind: "fault", fault: "bad_request", flavor: "unverified_org" }, { thinking: { text: "hidden" }, text: "First." }, { text: "Second." });
    const responses = handler();
    const first = await drain(responses.createMessage("", HELLO));
    expect(first.error).toBeUndefined();
    expect(first.text).toBe("First.");
    expect(first.reasoning).toBe("");
    const second = await drain(responses.createMessage("", HELLO));
    expect(second.text).toBe("Second.");
    expect(server.requests.map((r) => (r.body.reasoning as { summary?: string } | undefined)?.summary ?? null)).toEqual(["auto", null, null]);
  });

  it("prices a prompt past 272K at the long-context rates", async () => {
    server.enqueue({ text: "long", usage: { inputTokens: 100_000, outputTokens: 2_000, cacheReadTokens: 200_000 } });
    const usage = totalUsage((await drain(handler().createMessage("", HELLO))).chunks);
    expect(usage.totalCost).toBeCloseTo((100_000 * 4 + 2_000 * 15 + 200_000 * 0.2) / 1e6, 10);
  });

  it("ends normally with its usage when the answer was cut off (response.incomplete)", async () => {
    server.enqueue({ text: "cut sho", stopReason: "max_tokens", usage: { inputTokens: 40, outputTokens: 9 } });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.text).toBe("cut sho");
    expect(totalUsage(result.chunks)).toMatchObject({ inputTokens: 40, outputTokens: 9 });
    expect(result.chunks.filter((c) => c.type === "stop")).toEqual([{ type: "stop", reason: "max_tokens" }]);
  });
});

describe("what the Responses API handler sends", () => {
  const SYSTEM = "You are Tandem, a coding agent.";
  const TOOLS: ToolSpec[] = [
    {
      name: "read_file",
      description: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ];

  it("posts to /v1/responses with the key, instructions, store false, function tools and a reasoning summary", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler().createMessage(SYSTEM, HELLO, TOOLS));
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request).toMatchObject({ protocol: "openai-responses", path: "/v1/responses" });
    expect(request?.headers["authorization"]).toBe("Bearer sk-openai-test-key");
    expect(request?.body).toEqual({
      model: "gpt-6.2-sol",
      instructions: SYSTEM,
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hello" }] }],
      stream: true,
      store: false,
      tools: [{ type: "function", name: "read_file", description: "Read a file", parameters: TOOLS[0]?.inputSchema, strict: false }],
      reasoning: { summary: "auto" },
    });
  });

  it("gives a model that does not reason temperature 0 and no reasoning; leaves out empty instructions and tools", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: "gpt-4o" }).createMessage("  ", HELLO, []));
    const body = lastBody();
    expect(body).toMatchObject({ model: "gpt-4o", temperature: 0, store: false });
    for (const key of ["reasoning", "instructions", "tools"]) expect(body, key).not.toHaveProperty(key);
  });

  it("sends a placeholder key to a local server when none is set", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ apiKey: undefined }).createMessage("", HELLO));
    expect(server.requests[0]?.headers["authorization"]).toBe("Bearer not-needed");
  });

  it("converts tool use, tool results and images into input items, and drops thinking", async () => {
    server.enqueue({ text: "ok" });
    const history: ApiMessage[] = [
      { role: "user", content: "first question" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan", signature: "sig-A" },
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
      { role: "assistant", content: "Noted." },
    ];
    await drain(handler().createMessage(SYSTEM, history));
    expect(lastBody().input).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "first question" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me read it.", annotations: [] }] },
      { type: "function_call", call_id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' },
      { type: "function_call", call_id: "call_2", name: "take_screenshot", arguments: "{}" },
      { type: "function_call_output", call_id: "call_1", output: "file body" },
      {
        type: "function_call_output",
        call_id: "call_2",
        output: [
          { type: "input_text", text: "screenshot taken" },
          { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" },
        ],
      },
      { type: "message", role: "user", content: [{ type: "input_text", text: "what now?" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Noted.", annotations: [] }] },
    ]);
  });

  it("fails with bad_request, before any request, for a block it cannot send", async () => {
    const history = [{ role: "assistant", content: [{ type: "image", mediaType: "image/png", data: "AAAA" }] }] as ApiMessage[];
    const error = expectApiError(await drain(handler().createMessage("", history)), "bad_request");
    expect(error.message).toMatch(/no place for a "image" block in message 1 \(assistant\)/);
    expect(server.requests).toHaveLength(0);
  });

  it("fails with bad_request when there is no message at all", async () => {
    expectApiError(await drain(handler().createMessage("", [])), "bad_request");
    expect(server.requests).toHaveLength(0);
  });
});

describe("toResponsesInput", () => {
  it("keeps the order of an answer's text and calls, and joins neighbouring text blocks", () => {
    const input = toResponsesInput([
      {
        role: "assistant",
        content: [
          { type: "text", text: "First" },
          { type: "text", text: "second." },
          { type: "tool_use", id: "c1", name: "a", input: { n: 1 } },
          { type: "text", text: "Then more." },
          { type: "redacted_thinking", data: "opaque" },
        ],
      },
    ]);
    expect(input).toEqual([
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "First\nsecond.", annotations: [] }] },
      { type: "function_call", call_id: "c1", name: "a", arguments: '{"n":1}' },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Then more.", annotations: [] }] },
    ]);
  });

  it("marks failed tool results, as text and as content parts", () => {
    const input = toResponsesInput([
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "c1", content: "no such file", isError: true },
          {
            type: "tool_result",
            toolUseId: "c2",
            isError: true,
            content: [{ type: "image", mediaType: "image/jpeg", data: "/9j/" }],
          },
        ],
      },
    ]);
    expect(input).toEqual([
      { type: "function_call_output", call_id: "c1", output: "Error: no such file" },
      {
        type: "function_call_output",
        call_id: "c2",
        output: [
          { type: "input_text", text: "Error:" },
          { type: "input_image", image_url: "data:image/jpeg;base64,/9j/", detail: "auto" },
        ],
      },
    ]);
  });

  it("puts tool results before the person's own words, and sends nothing for a thinking-only answer", () => {
    const input = toResponsesInput([
      { role: "assistant", content: [{ type: "thinking", thinking: "hmm", signature: "s" }] },
      {
        role: "user",
        content: [
          { type: "image", mediaType: "image/png", data: "AAAA" },
          { type: "tool_result", toolUseId: "c1", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
        ],
      },
    ]);
    expect(input).toEqual([
      { type: "function_call_output", call_id: "c1", output: "a\nb" },
      { type: "message", role: "user", content: [{ type: "input_image", image_url: "data:image/png;base64,AAAA", detail: "auto" }] },
    ]);
  });

  it.each([
    ["user", { type: "tool_use", id: "c1", name: "a", input: {} }, /"tool_use" block in message 1 \(user\)/],
    ["assistant", { type: "tool_result", toolUseId: "c1", content: "x" }, /"tool_result" block in message 1 \(assistant\)/],
    ["user", { type: "document", data: "x" }, /"document" block in message 1 \(user\)/],
  ] as const)("refuses a %s message holding %o", (role, block, message) => {
    expect(() => toResponsesInput([{ role, content: [block as never] }])).toThrow(message);
  });
});

describe("Responses API faults", () => {
  it("response.failed keeps OpenAI's own words in the message", async () => {
    server.enqueue({ kind: "fault", fault: "error_mid_stream" });
    const error = expectApiError(await drain(handler().createMessage("", HELLO)), "server_error");
    expect(error.message).toMatch(/^OpenAI-compatible server at 127\.0\.0\.1:\d+: server error \(in stream\): An error occurred/);
    expect(error.retryable).toBe(true);
  });
});
