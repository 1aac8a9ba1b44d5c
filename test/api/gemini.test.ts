/**
 * What only the Gemini handler does, through the real @google/genai against the scripted model
 * server: what it sends (system instruction, roles, function declarations and responses, thinking
 * configuration, thought signatures), how it keeps the key, that the SDK retries nothing, ids for
 * calls Gemini sent without one, long-prompt prices, and the Gemini catalogue.
 * What every provider does (text, tool calls, usage, faults, abort) is provider-wire.test.ts.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveConfiguration } from "../../src/api/config.js";
import { DEFAULT_GEMINI_MODEL, GEMINI } from "../../src/api/gemini-models.js";
import type { ApiConfiguration } from "../../src/api/index.js";
import { catalogueIdOf, DEFAULT_MODEL_ID, listModels, pricesFor, resolveModel, retirementOf } from "../../src/api/model-info.js";
import { SKIP_SIGNATURE_VALIDATION } from "../../src/api/providers/gemini-format.js";
import type { ApiMessage, ToolSpec } from "../../src/api/types.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { providerAdapter } from "./provider-adapters.js";
import { assembleToolCalls, drain, expectApiError, totalUsage } from "./stream-helpers.js";

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer();
});

afterEach(async () => {
  await server.close();
});

const GEMINI_API = providerAdapter("Google Gemini");
const VERTEX = providerAdapter("Gemini on Vertex AI");
const KEY = "gemini-test-key";
const handler = (overrides: Partial<ApiConfiguration> = {}) => GEMINI_API.handler(server, overrides);

const HELLO: ApiMessage[] = [{ role: "user", content: "hello" }];
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function lastBody(): Record<string, unknown> {
  const request = server.requests.at(-1);
  if (!request) throw new Error("the server received no request");
  return request.body;
}

describe("what the Gemini handler sends", () => {
  const SYSTEM = "You are Tandem, a coding agent.";
  const TOOLS: ToolSpec[] = [
    {
      name: "read_file",
      description: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false },
    },
  ];
  const HISTORY: ApiMessage[] = [
    { role: "user", content: [{ type: "text", text: "what is in this picture and in app.ts?" }, { type: "image", mediaType: "image/jpg", data: PNG }] },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Read both.", signature: "sig-gemini-1" },
        { type: "text", text: "Reading." },
        { type: "tool_use", id: "fc_1", name: "read_file", input: { path: "app.ts" } },
        { type: "tool_use", id: "fc_2", name: "read_file", input: { path: "shot.png" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "text", text: "here they are" },
        { type: "tool_result", toolUseId: "fc_1", content: "export {};" },
        { type: "tool_result", toolUseId: "fc_2", content: [{ type: "text", text: "an image" }, { type: "image", mediaType: "image/png", data: PNG }] },
      ],
    },
  ];

  it("sends the system instruction, user and model turns, function calls with the signature, and named function responses", async () => {
    server.enqueue({ text: "ok" });
    expect((await drain(handler().createMessage(SYSTEM, HISTORY, TOOLS))).error).toBeUndefined();
    const body = lastBody();
    expect(body.systemInstruction).toEqual({ parts: [{ text: SYSTEM }] });
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "what is in this picture and in app.ts?" }, { inlineData: { mimeType: "image/jpeg", data: PNG } }] },
      {
        role: "model",
        // Thinking text is not sent back; its signature goes on the first call, as Gemini signs it.
        parts: [
          { text: "Reading." },
          { functionCall: { id: "fc_1", name: "read_file", args: { path: "app.ts" } }, thoughtSignature: "sig-gemini-1" },
          { functionCall: { id: "fc_2", name: "read_file", args: { path: "shot.png" } } },
        ],
      },
      {
        role: "user",
        // The responses first, then the image a tool returned, then the person's text.
        parts: [
          { functionResponse: { id: "fc_1", name: "read_file", response: { output: "export {};" } } },
          { functionResponse: { id: "fc_2", name: "read_file", response: { output: "an image" } } },
          { inlineData: { mimeType: "image/png", data: PNG } },
          { text: "here they are" },
        ],
      },
    ]);
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: "read_file", description: "Read a file", parametersJsonSchema: TOOLS[0]?.inputSchema }] }]);
  });

  it("asks Gemini 4 for its thoughts, sends no budget and no temperature, and caps the output at the model's limit", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ thinkingBudgetTokens: 8_000 }).createMessage("", HELLO));
    const config = lastBody().generationConfig as Record<string, unknown>;
    expect(config.thinkingConfig).toEqual({ includeThoughts: true });
    expect(config.maxOutputTokens).toBe(65_536);
    expect(config).not.toHaveProperty("temperature");
    expect(lastBody()).not.toHaveProperty("systemInstruction");
    expect(lastBody()).not.toHaveProperty("tools");
  });

  it("gives Gemini 2.5 its thinking budget and a temperature of 0", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: "gemini-2.5-flash-lite", thinkingBudgetTokens: 4_096 }).createMessage("", HELLO));
    const config = lastBody().generationConfig as Record<string, unknown>;
    expect(config.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 4_096 });
    expect(config.temperature).toBe(0);
  });

  it("leaves thinking and the output limit to the server for a model the catalogue does not know", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: "gemini-9-experimental" }).createMessage("", HELLO));
    expect(lastBody().generationConfig).toEqual({});
  });

  it("marks a Gemini 3+ function call that lost its signature with Google's stand-in, and a Gemini error as an error", async () => {
    const history: ApiMessage[] = [
      { role: "user", content: "list" },
      { role: "assistant", content: [{ type: "tool_use", id: "call_from_another_provider", name: "list_files", input: { path: "." } }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: "call_from_another_provider", content: "no such folder", isError: true }] },
    ];
    server.enqueue({ text: "ok" }, { text: "ok" });
    await drain(handler().createMessage("", history));
    const [, model, user] = lastBody().contents as { parts: Record<string, unknown>[] }[];
    expect(model?.parts).toEqual([
      { functionCall: { id: "call_from_another_provider", name: "list_files", args: { path: "." } }, thoughtSignature: SKIP_SIGNATURE_VALIDATION },
    ]);
    expect(user?.parts).toEqual([{ functionResponse: { id: "call_from_another_provider", name: "list_files", response: { error: "no such folder" } } }]);
    // Gemini 2.5 validates no signature: none is made up for it.
    await drain(handler({ modelId: "gemini-2.5-flash-lite" }).createMessage("", history));
    const [, older] = lastBody().contents as { parts: Record<string, unknown>[] }[];
    expect(older?.parts[0]).not.toHaveProperty("thoughtSignature");
  });

  it("refuses an image type Gemini does not read, and a tool result that answers no call, before any request", async () => {
    const gif: ApiMessage[] = [{ role: "user", content: [{ type: "image", mediaType: "image/gif", data: "R0lGODlhAQABAAAAACw=" }] }];
    expect(expectApiError(await drain(handler().createMessage("", gif)), "bad_request").message).toMatch(/^Google Gemini accepts images of type .*"image\/gif"/);
    const orphan: ApiMessage[] = [{ role: "user", content: [{ type: "tool_result", toolUseId: "fc_missing", content: "?" }] }];
    expect(expectApiError(await drain(handler().createMessage("", orphan)), "bad_request").message).toMatch(/^Google Gemini: a tool result \(id "fc_missing"\) answers no tool call/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("the Gemini API key", () => {
  it("goes in the x-goog-api-key header, never in the URL, a message or the console", async () => {
    const urls: string[] = [];
    const onRequest = (message: unknown) => {
      const request = (message as { request: { origin: string; path: string } }).request;
      urls.push(`${request.origin}${request.path}`);
    };
    const printed = (["log", "info", "warn", "error", "debug"] as const).map((level) => vi.spyOn(console, level).mockImplementation(() => undefined));
    subscribe("undici:request:create", onRequest);
    try {
      server.enqueue({ text: "ok" }, { kind: "fault", fault: "auth" });
      await drain(handler().createMessage("", HELLO));
      const refused = expectApiError(await drain(handler().createMessage("", HELLO)), "auth");
      expect(refused.message).toBe("Google Gemini: the API key or the account was refused (HTTP 400): API key not valid. Please pass a valid API key.");
      expect(server.requests.map((r) => r.headers["x-goog-api-key"])).toEqual([KEY, KEY]);
      expect(server.requests.map((r) => r.path)).toEqual([
        "/v1beta/models/gemini-4-neon:streamGenerateContent",
        "/v1beta/models/gemini-4-neon:streamGenerateContent",
      ]);
      expect(urls).toEqual([`${server.url}/v1beta/models/gemini-4-neon:streamGenerateContent?alt=sse`, expect.any(String)]);
      expect(urls.join(" ")).not.toContain(KEY);
      expect(JSON.stringify(refused)).not.toContain(KEY);
      for (const spy of printed) expect(JSON.stringify(spy.mock.calls)).not.toContain(KEY);
    } finally {
      unsubscribe("undici:request:create", onRequest);
      for (const spy of printed) spy.mockRestore();
    }
  });

  it("is required before any request", async () => {
    const api = GEMINI_API.handler(server, { apiKey: "" });
    expect(expectApiError(await drain(api.createMessage("", HELLO)), "auth").message).toBe("Google Gemini: no API key is set.");
    expect(server.requests).toHaveLength(0);
  });
});

describe("Gemini retries nothing itself", () => {
  it.each([
    ["server_error", "server_error", 500],
    ["overloaded", "overloaded", 503],
    ["rate_limit", "rate_limited", 429],
  ] as const)("%s -> %s: exactly one request, though the SDK counts a %i among the statuses it can retry", async (fault, kind, status) => {
    server.enqueue({ kind: "fault", fault }, { text: "a retry would get this" });
    expect(expectApiError(await drain(handler().createMessage("", HELLO)), kind).status).toBe(status);
    expect(server.requests).toHaveLength(1);
  });

  it("a dropped stream: no automatic continuation request either", async () => {
    server.enqueue({ kind: "fault", fault: "drop_connection", text: "partial" }, { text: "a continuation would get this" });
    expectApiError(await drain(handler().createMessage("", HELLO)), "connection_lost");
    expect(server.requests).toHaveLength(1);
  });
});

describe("the request timeout", () => {
  it("bounds the wait for the response to start, and is no SDK timeout that would cut a stream", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const api = handler({ baseUrl: `http://127.0.0.1:${port}`, requestTimeoutMs: 200, streamIdleTimeoutMs: 60_000 });
      expect(expectApiError(await drain(api.createMessage("", HELLO)), "stalled").message).toBe(
        "Google Gemini: no response arrived in time (request timeout after 200 ms)",
      );
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
    // An answer that streams for longer than the timeout is not cut off.
    server.enqueue({ text: "slow but steady", chunkSize: 1, delayMs: 25 });
    expect((await drain(handler({ requestTimeoutMs: 200 }).createMessage("", HELLO))).text).toBe("slow but steady");
  });
});

describe("Gemini answers", () => {
  it("gives calls Gemini sent without an id ids of their own, and leaves them out when the history goes back", async () => {
    server.enqueue({ toolCalls: [{ name: "read_file", input: { path: "a.ts" } }, { name: "read_file", input: { path: "b.ts" } }] });
    const result = await drain(handler().createMessage("", HELLO));
    const calls = assembleToolCalls(result.chunks);
    const ids = calls.map((call) => call.id ?? "");
    expect(ids[0]).toMatch(/^gemini_call_[0-9a-f]{12}_0$/);
    expect(ids[1]).toMatch(/^gemini_call_[0-9a-f]{12}_1$/);
    expect(result.chunks.filter((c) => c.type === "stop")).toEqual([{ type: "stop", reason: "tool_use" }]);
    // The signature Gemini put on the first call comes out as reasoning, for the history.
    const signature = result.chunks.find((c) => c.type === "reasoning" && c.signature)?.type === "reasoning";
    expect(signature).toBe(true);

    server.enqueue({ text: "done" });
    const history: ApiMessage[] = [
      ...HELLO,
      { role: "assistant", content: calls.map((call, i) => ({ type: "tool_use", id: ids[i] ?? "", name: call.name ?? "", input: JSON.parse(call.arguments) as Record<string, unknown> })) },
      { role: "user", content: ids.map((id) => ({ type: "tool_result", toolUseId: id, content: "ok" })) },
    ];
    await drain(handler().createMessage("", history));
    const [, model, user] = lastBody().contents as { parts: { functionCall?: Record<string, unknown>; functionResponse?: Record<string, unknown> }[] }[];
    expect(model?.parts.map((p) => p.functionCall)).toEqual([
      { name: "read_file", args: { path: "a.ts" } },
      { name: "read_file", args: { path: "b.ts" } },
    ]);
    expect(user?.parts.map((p) => p.functionResponse)).toEqual([
      { name: "read_file", response: { output: "ok" } },
      { name: "read_file", response: { output: "ok" } },
    ]);
  });

  it("counts thoughts as output and reports the usage once, not each running total", async () => {
    server.enqueue({ thinking: { text: "t".repeat(400) }, text: "x".repeat(64), chunkSize: 8, usage: { inputTokens: 2_000, outputTokens: 300 } });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.chunks.filter((c) => c.type === "usage")).toHaveLength(1);
    expect(totalUsage(result.chunks)).toMatchObject({ inputTokens: 2_000, outputTokens: 300, cacheReadTokens: 0 });
  });

  it("prices a whole Gemini 3.1 Pro answer at the long-prompt rates once the prompt passes 200K", async () => {
    const model = { modelId: "gemini-3.1-pro-preview" };
    server.enqueue({ text: "long", usage: { inputTokens: 150_000, outputTokens: 1_000, cacheReadTokens: 60_000 } });
    const long = totalUsage((await drain(handler(model).createMessage("", HELLO))).chunks);
    expect(long.totalCost).toBeCloseTo((150_000 * 4 + 1_000 * 18 + 60_000 * 0.4) / 1e6, 10);
    server.enqueue({ text: "short", usage: { inputTokens: 150_000, outputTokens: 1_000, cacheReadTokens: 40_000 } });
    const short = totalUsage((await drain(handler(model).createMessage("", HELLO))).chunks);
    expect(short.totalCost).toBeCloseTo((150_000 * 2 + 1_000 * 12 + 40_000 * 0.2) / 1e6, 10);
  });
});

describe("Gemini on Vertex AI", () => {
  it("posts to the project's and location's path, signed with a Google token instead of a key", async () => {
    server.enqueue({ text: "ok" });
    expect((await drain(VERTEX.handler(server).createMessage("", HELLO))).text).toBe("ok");
    const request = server.requests[0];
    expect(request?.path).toBe("/v1beta1/projects/tandem-test/locations/us-east5/publishers/google/models/gemini-4-neon:streamGenerateContent");
    expect(request?.headers.authorization).toMatch(/^Bearer \S+/);
    expect(request?.headers).not.toHaveProperty("x-goog-api-key");
  });

  it("names Vertex AI in its messages", async () => {
    server.enqueue({ kind: "fault", fault: "auth" });
    expect(expectApiError(await drain(VERTEX.handler(server).createMessage("", HELLO)), "auth").message).toMatch(/^Google Vertex AI: .*\(HTTP 401\)/);
  });
});

describe("the Gemini catalogue", () => {
  it("defaults to a current, listed model", () => {
    expect(DEFAULT_MODEL_ID.gemini).toBe(DEFAULT_GEMINI_MODEL);
    const listed = listModels("gemini").find((m) => m.id === DEFAULT_GEMINI_MODEL);
    expect(listed).toMatchObject({ status: "active", contextWindow: 1_048_576, maxOutputTokens: 65_536 });
    expect(listed?.retiresOn).toBeUndefined();
  });

  it("finds a model under the names the Gemini API, Vertex AI and OpenRouter give it", () => {
    expect(catalogueIdOf("gemini", "models/gemini-4-neon")).toBe("gemini-4-neon");
    expect(catalogueIdOf("vertex", "publishers/google/models/gemini-4-argon")).toBe("gemini-4-argon");
    expect(catalogueIdOf("openrouter", "google/gemini-3.8-flash")).toBe("gemini-3.8-flash");
    expect(catalogueIdOf("gemini", "gemini-1.5-pro")).toBeUndefined();
  });

  it.each([
    ["gemini-4-neon", "adaptive", false],
    ["gemini-4-hydrogen", "adaptive", false],
    ["gemini-3.8-flash", "adaptive", false],
    ["gemini-3.1-pro-preview", "adaptive", false],
    ["gemini-2.5-flash-lite", "manual", true],
  ] as const)("%s thinks %s, temperature accepted: %s", (id, thinking, temperature) => {
    const { info } = resolveModel("gemini", id);
    expect(info.thinking).toBe(thinking);
    expect(info.supportsTemperature).toBe(temperature);
  });

  it("prices every model, with the long-prompt rates on the Pro models only", () => {
    for (const [id, { info }] of Object.entries(GEMINI)) {
      expect(info.inputPrice, id).toBeGreaterThan(0);
      expect(info.cacheReadPrice, id).toBeLessThan(info.inputPrice);
      expect(info.cacheWritePrice, id).toBe(info.inputPrice);
      expect(Boolean(info.longPromptPricing), id).toBe(/-pro\b/.test(id));
    }
    const pro = resolveModel("gemini", "gemini-3.1-pro-preview").info;
    expect(pricesFor(pro, { inputTokens: 200_000, outputTokens: 0 })).toBe(pro);
    expect(pricesFor(pro, { inputTokens: 150_000, outputTokens: 0, cacheReadTokens: 50_001 })).toMatchObject({ inputPrice: 4, outputPrice: 18 });
  });

  it("knows Gemini 2.5 Pro and Flash were shut down on 2026-12-01, and refuses them on Google's endpoint", () => {
    expect(retirementOf("gemini", "gemini-2.5-pro", new Date("2026-11-30T12:00:00Z"))).toBeUndefined();
    expect(retirementOf("gemini", "gemini-2.5-flash", new Date("2026-12-01T00:00:01Z"))).toEqual({ retiredOn: "2026-12-01" });
    expect(() => resolveConfiguration({ provider: "gemini", apiKey: KEY, modelId: "gemini-2.5-pro" }, new Date("2026-12-04"))).toThrow(
      /retired by Google on 2026-12-01; choose a current one, such as gemini-4-neon/,
    );
  });
});
