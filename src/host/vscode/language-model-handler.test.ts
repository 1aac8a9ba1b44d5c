/**
 * The vscode-lm handler and model list against a fake of what they use of the `vscode` module
 * (both import `vscode` for its types only, so plain Node runs them).
 */
import { describe, expect, it } from "vitest";
import type * as vscode from "vscode";
import { ApiError } from "../../api/errors";
import type { ApiConfiguration } from "../../api/config";
import type { ApiMessage, ApiStreamChunk, ToolSpec } from "../../api/types";
import { JUSTIFICATION, VscodeLmHandler, type LanguageModelApi } from "./language-model-handler";
import { listVscodeChatModels, onVscodeChatModelsChanged, VSCODE_LM_MAX_OUTPUT_TOKENS } from "./language-models";

// ------------------------------------------------------------ the fake vscode module

class TextPart {
  constructor(public value: string) {}
}
class ToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
class ToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
class ChatMessage {
  static User(content: unknown[]): ChatMessage {
    return new ChatMessage(1, content);
  }
  static Assistant(content: unknown[]): ChatMessage {
    return new ChatMessage(2, content);
  }
  constructor(
    public role: number,
    public content: unknown[],
  ) {}
}
class LanguageModelError extends Error {
  static NoPermissions(message?: string) {
    return new LanguageModelError(message, "NoPermissions");
  }
  static Blocked(message?: string) {
    return new LanguageModelError(message, "Blocked");
  }
  static NotFound(message?: string) {
    return new LanguageModelError(message, "NotFound");
  }
  constructor(
    message: string | undefined,
    readonly code: string,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = "LanguageModelError";
  }
}
class TokenSource {
  static made: TokenSource[] = [];
  cancelled = false;
  disposed = false;
  private readonly listeners: (() => void)[] = [];
  readonly token = {
    isCancellationRequested: false,
    onCancellationRequested: (listener: () => void) => (this.listeners.push(listener), { dispose() {} }),
  };
  constructor() {
    TokenSource.made.push(this);
  }
  cancel() {
    this.cancelled = true;
    this.token.isCancellationRequested = true;
    for (const listener of this.listeners) listener();
  }
  dispose() {
    this.disposed = true;
  }
}

interface SentRequest {
  messages: ChatMessage[];
  options: vscode.LanguageModelChatRequestOptions;
  token: TokenSource["token"];
}

interface FakeModel {
  id: string;
  vendor?: string;
  family?: string;
  name?: string;
  maxInputTokens?: number;
  capabilities?: { supportsToolCalling?: boolean };
  /** The answer's parts, or what sendRequest throws. */
  answer?: (request: SentRequest) => AsyncIterable<unknown> | Iterable<unknown>;
  sendError?: unknown;
  countTokens?: (text: string | ChatMessage) => number | Promise<number>;
}

function fakeVscode(models: FakeModel[]) {
  const sent: SentRequest[] = [];
  const counted: (string | ChatMessage)[] = [];
  const selectors: (vscode.LanguageModelChatSelector | undefined)[] = [];
  const chats = models.map((model) => ({
    id: model.id,
    vendor: model.vendor ?? "test",
    family: model.family ?? "fake",
    name: model.name ?? model.id,
    version: "1",
    maxInputTokens: model.maxInputTokens ?? 64_000,
    ...(model.capabilities ? { capabilities: model.capabilities } : {}),
    async sendRequest(messages: ChatMessage[], options: vscode.LanguageModelChatRequestOptions, token: TokenSource["token"]) {
      const request = { messages, options, token };
      sent.push(request);
      if (model.sendError) throw model.sendError;
      const parts = (model.answer ?? (() => [new TextPart("ok")]))(request);
      return { stream: toAsync(parts), text: (async function* () {})() };
    },
    // Not async: VS Code's own throws at once when the model is gone.
    countTokens(text: string | ChatMessage) {
      counted.push(text);
      return Promise.resolve((model.countTokens ?? roughCount)(text));
    },
  }));
  const api = {
    LanguageModelChatMessage: ChatMessage,
    LanguageModelTextPart: TextPart,
    LanguageModelToolCallPart: ToolCallPart,
    LanguageModelToolResultPart: ToolResultPart,
    LanguageModelError,
    LanguageModelChatToolMode: { Auto: 1, Required: 2 },
    CancellationTokenSource: TokenSource,
    lm: {
      async selectChatModels(selector?: vscode.LanguageModelChatSelector) {
        selectors.push(selector);
        return chats.filter(
          (chat) =>
            (!selector?.id || chat.id === selector.id) &&
            (!selector?.vendor || chat.vendor === selector.vendor) &&
            (!selector?.family || chat.family === selector.family),
        );
      },
    },
  } as unknown as LanguageModelApi;
  return { api, sent, counted, selectors };
}

function roughCount(text: string | ChatMessage): number {
  const value = typeof text === "string" ? text : text.content.map((part) => (part instanceof TextPart ? part.value : JSON.stringify(part))).join("");
  return Math.ceil(value.length / 4);
}

async function* toAsync(parts: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<unknown> {
  yield* parts;
}

/** The core's ApiError stands in as a subclass: the handler must throw the class it is given. */
class CoreApiError extends ApiError {}

function handler(api: LanguageModelApi, config: Partial<ApiConfiguration> = {}) {
  return new VscodeLmHandler({ provider: "vscode-lm", modelId: "gpt-test", streamIdleTimeoutMs: 150, ...config }, { vscode: api, ApiError: CoreApiError });
}

async function collect(stream: AsyncIterable<ApiStreamChunk>): Promise<ApiStreamChunk[]> {
  const chunks: ApiStreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function failure(stream: AsyncIterable<ApiStreamChunk>): Promise<CoreApiError> {
  try {
    await collect(stream);
  } catch (error) {
    expect(error).toBeInstanceOf(CoreApiError);
    return error as CoreApiError;
  }
  throw new Error("the stream did not fail");
}

const USER: ApiMessage[] = [{ role: "user", content: "Write hello.txt" }];
const TOOLS: ToolSpec[] = [{ name: "write_to_file", description: "Writes a file", inputSchema: { type: "object", properties: { path: { type: "string" } } } }];

// ------------------------------------------------------------ the tests

describe("VscodeLmHandler: the request", () => {
  it("sends the system prompt first as a user message, then every block kind in VS Code's parts", async () => {
    const { api, sent } = fakeVscode([{ id: "gpt-test" }]);
    const history: ApiMessage[] = [
      { role: "user", content: [{ type: "text", text: "Create a.txt" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan", signature: "sig" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "Writing it." },
          { type: "tool_use", id: "call-1", name: "write_to_file", input: { path: "a.txt", content: "A" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "call-1", content: "written" },
          { type: "text", text: "thanks" },
        ],
      },
      { role: "assistant", content: [{ type: "tool_use", id: "call-2", name: "read_file", input: { path: "b.txt" } }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            toolUseId: "call-2",
            isError: true,
            content: [
              { type: "text", text: "no such file" },
              { type: "image", mediaType: "image/png", data: "AAAA" },
            ],
          },
        ],
      },
      // Only thinking: nothing VS Code can carry, so no empty message is sent.
      { role: "assistant", content: [{ type: "thinking", thinking: "hm" }] },
      { role: "user", content: "go on" },
    ];
    await collect(handler(api).createMessage("You are Tandem.", history));
    const [request] = sent;
    expect(request?.messages.map((m) => m.role)).toEqual([1, 1, 2, 1, 2, 1, 1]);
    const [system, first, answer, results, call, error, last] = request?.messages ?? [];
    expect(system?.content).toEqual([new TextPart("You are Tandem.")]);
    expect(first?.content).toEqual([new TextPart("Create a.txt")]);
    expect(answer?.content).toEqual([new TextPart("Writing it."), new ToolCallPart("call-1", "write_to_file", { path: "a.txt", content: "A" })]);
    expect(results?.content).toEqual([new ToolResultPart("call-1", [new TextPart("written")]), new TextPart("thanks")]);
    expect(call?.content).toEqual([new ToolCallPart("call-2", "read_file", { path: "b.txt" })]);
    const [result] = error?.content ?? [];
    expect(result).toBeInstanceOf(ToolResultPart);
    const text = ((result as ToolResultPart).content[0] as TextPart).value;
    expect(text).toMatch(/^Error: no such file\n\(an image the tool returned is left out/);
    expect(last?.content).toEqual([new TextPart("go on")]);
  });

  it("offers the tools with toolMode auto and says why Tandem asks; no tools, no tool options", async () => {
    const { api, sent } = fakeVscode([{ id: "gpt-test" }]);
    await collect(handler(api).createMessage("sys", USER, TOOLS));
    expect(sent[0]?.options).toEqual({ justification: JUSTIFICATION, tools: [{ name: "write_to_file", description: "Writes a file", inputSchema: TOOLS[0]?.inputSchema }], toolMode: 1 });
    await collect(handler(api).createMessage("sys", USER, []));
    expect(sent[1]?.options).toEqual({ justification: JUSTIFICATION });
  });

  it("refuses an image the person attached with bad_request, before asking VS Code for anything", async () => {
    const { api, sent, selectors } = fakeVscode([{ id: "gpt-test" }]);
    const error = await failure(handler(api).createMessage("sys", [{ role: "user", content: [{ type: "text", text: "see" }, { type: "image", mediaType: "image/png", data: "AAAA" }] }]));
    expect(error.kind).toBe("bad_request");
    expect(error.message).toContain("cannot take images");
    expect(sent).toHaveLength(0);
    expect(selectors).toHaveLength(0);
  });

  it("refuses an empty conversation", async () => {
    const { api } = fakeVscode([{ id: "gpt-test" }]);
    expect((await failure(handler(api).createMessage("sys", []))).kind).toBe("bad_request");
  });
});

describe("VscodeLmHandler: the answer", () => {
  it("streams text and whole tool calls, then the usage counted by the model's tokenizer, then tool_use", async () => {
    const { api, counted } = fakeVscode([
      {
        id: "gpt-test",
        answer: () => [new TextPart("I will "), new TextPart(""), new TextPart("write it."), { some: "unknown part" }, new ToolCallPart("c1", "write_to_file", { path: "a.txt", content: "A" }), new ToolCallPart("c2", "attempt_completion", { result: "done" })],
        countTokens: (text) => (typeof text === "string" ? text.length : 100),
      },
    ]);
    const chunks = await collect(handler(api).createMessage("sys", USER, TOOLS));
    const output = 'I will write it.write_to_file{"path":"a.txt","content":"A"}attempt_completion{"result":"done"}';
    expect(chunks).toEqual([
      { type: "text", text: "I will " },
      { type: "text", text: "write it." },
      { type: "tool_calls", index: 0, id: "c1", name: "write_to_file", argumentsDelta: '{"path":"a.txt","content":"A"}' },
      { type: "tool_calls", index: 1, id: "c2", name: "attempt_completion", argumentsDelta: '{"result":"done"}' },
      // Two messages (system, task) at 100 each, plus the tools' JSON; cost 0: the subscription pays.
      { type: "usage", inputTokens: 200 + JSON.stringify([{ name: "write_to_file", description: "Writes a file", inputSchema: TOOLS[0]?.inputSchema }]).length, outputTokens: output.length, cacheWriteTokens: 0, cacheReadTokens: 0, totalCost: 0 },
      { type: "stop", reason: "tool_use" },
    ]);
    expect(counted.filter((c) => typeof c !== "string")).toHaveLength(2);
  });

  it("ends a plain answer with end_turn; a tokenizer that fails, at once or later, only leaves the usage out", async () => {
    const throwing = () => {
      throw new Error("no tokenizer");
    };
    for (const countTokens of [throwing, () => Promise.reject(new Error("no tokenizer"))]) {
      const { api } = fakeVscode([{ id: "gpt-test", answer: () => [new TextPart("Hello")], countTokens }]);
      expect(await collect(handler(api).createMessage("sys", USER))).toEqual([
        { type: "text", text: "Hello" },
        { type: "stop", reason: "end_turn" },
      ]);
    }
  });

  it("picks the model by id, else by vendor/family", async () => {
    const { api, sent, selectors } = fakeVscode([{ id: "other" }, { id: "claude-x", vendor: "copilot", family: "claude-sonnet" }]);
    await collect(handler(api, { modelId: "copilot/claude-sonnet" }).createMessage("sys", USER));
    expect(selectors).toEqual([{ id: "copilot/claude-sonnet" }, { vendor: "copilot", family: "claude-sonnet" }]);
    expect(sent).toHaveLength(1);
  });
});

describe("VscodeLmHandler: the model", () => {
  it("takes the settings' list's info, or learns the window from the model; prices stay 0", async () => {
    const { api } = fakeVscode([{ id: "gpt-test", maxInputTokens: 12_000 }]);
    const listed = handler(api, { listedModel: { contextWindow: 100_000, maxOutputTokens: 4096 } });
    expect(listed.getModel()).toMatchObject({ id: "gpt-test", info: { contextWindow: 100_000, maxOutputTokens: 4096, inputPrice: 0, outputPrice: 0 } });
    await collect(listed.createMessage("sys", USER));
    expect(listed.getModel().info.contextWindow).toBe(100_000);

    const learning = handler(api);
    await collect(learning.createMessage("sys", USER));
    expect(learning.getModel().info).toMatchObject({ contextWindow: 12_000, maxOutputTokens: 6_000, supportsImages: false });

    const overridden = handler(api, { contextWindowOverride: 50_000 });
    await collect(overridden.createMessage("sys", USER));
    expect(overridden.getModel().info.contextWindow).toBe(50_000);
  });

  it("wants a model chosen", () => {
    const { api } = fakeVscode([]);
    expect(() => handler(api, { modelId: " " })).toThrow(/no model is chosen: pick one of VS Code's models in Tandem's settings/);
  });

  it("says to install Copilot when VS Code offers no model, and lists the others when the chosen one is missing", async () => {
    const none = await failure(handler(fakeVscode([]).api).createMessage("sys", USER));
    expect(none.kind).toBe("bad_request");
    expect(none.message).toMatch(/VS Code offers no language model\. Install GitHub Copilot Chat and sign in to it \(or install another extension that provides chat models\)/);
    const missing = await failure(handler(fakeVscode([{ id: "a" }, { id: "b" }]).api).createMessage("sys", USER));
    expect(missing.kind).toBe("bad_request");
    expect(missing.message).toContain('the model "gpt-test" is not available in VS Code (it offers: a, b): pick another');
  });
});

describe("VscodeLmHandler: cancellation", () => {
  it("abort() mid-stream cancels VS Code's token and throws aborted", async () => {
    let release: () => void = () => {};
    const { api, sent } = fakeVscode([
      {
        id: "gpt-test",
        async *answer() {
          yield new TextPart("first");
          await new Promise<void>((resolve) => (release = resolve));
          yield new TextPart("never");
        },
      },
    ]);
    const lm = handler(api);
    const stream = lm.createMessage("sys", USER);
    expect((await stream.next()).value).toEqual({ type: "text", text: "first" });
    const next = stream.next();
    lm.abort();
    await expect(next).rejects.toMatchObject({ kind: "aborted" });
    expect(sent[0]?.token.isCancellationRequested).toBe(true);
    release();
  });

  it("abort() before the stream is read sends nothing", async () => {
    const { api, sent } = fakeVscode([{ id: "gpt-test" }]);
    const lm = handler(api);
    const stream = lm.createMessage("sys", USER);
    lm.abort();
    expect((await failure(stream)).kind).toBe("aborted");
    expect(sent).toHaveLength(0);
  });

  it("leaving the stream early cancels the request; each request's token source is disposed", async () => {
    TokenSource.made = [];
    const { api, sent } = fakeVscode([{ id: "gpt-test", answer: () => [new TextPart("a"), new TextPart("b")] }]);
    for await (const chunk of handler(api).createMessage("sys", USER)) if (chunk.type === "text") break;
    expect(sent[0]?.token.isCancellationRequested).toBe(true);
    expect(TokenSource.made.map((s) => s.disposed)).toEqual([true]);
  });

  it("a stream that goes silent is stalled, and cancelled", async () => {
    const { api, sent } = fakeVscode([
      {
        id: "gpt-test",
        async *answer() {
          yield new TextPart("first");
          await new Promise(() => {});
        },
      },
    ]);
    const error = await failure(handler(api, { streamIdleTimeoutMs: 20 }).createMessage("sys", USER));
    expect(error.kind).toBe("stalled");
    expect(sent[0]?.token.isCancellationRequested).toBe(true);
  });
});

describe("VscodeLmHandler: failures", () => {
  const failing = async (sendError: unknown) => failure(handler(fakeVscode([{ id: "gpt-test", sendError }]).api).createMessage("sys", USER));

  it("consent refused (NoPermissions) is auth, saying where to allow it", async () => {
    const error = await failing(LanguageModelError.NoPermissions("Language model 'gpt-test' cannot be used by 'tandem.tandem'."));
    expect(error.kind).toBe("auth");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('VS Code did not let Tandem use the model "gpt-test": allow it when VS Code asks, or in the Accounts menu');
    expect(error.message).toContain("Manage Trusted Extensions");
  });

  it("Blocked is rate_limited; NotFound is bad_request naming the model", async () => {
    expect((await failing(LanguageModelError.Blocked("quota"))).kind).toBe("rate_limited");
    const gone = await failing(LanguageModelError.NotFound("unknown model"));
    expect(gone.kind).toBe("bad_request");
    expect(gone.message).toContain('the model "gpt-test" is no longer available: pick another in Tandem\'s settings');
  });

  it("context length wording, in the message or its cause, is context_window_exceeded", async () => {
    const copilot = new LanguageModelError("Request Failed", "Unknown", new Error('400 {"error":{"message":"prompt token count of 140000 exceeds the limit of 128000"}}'));
    expect((await failing(copilot)).kind).toBe("context_window_exceeded");
    expect((await failing(new Error("This model's maximum context length is 8192 tokens"))).kind).toBe("context_window_exceeded");
  });

  it("a revived LanguageModelError of another class is still read by its code", async () => {
    const foreign = Object.assign(new Error("no"), { name: "LanguageModelError", code: "NoPermissions" });
    expect((await failing(foreign)).kind).toBe("auth");
  });

  it("anything else is unknown (retried), also when it breaks the stream midway", async () => {
    const error = await failing(new Error("socket hang up"));
    expect(error.kind).toBe("unknown");
    expect(error.message).toBe("VS Code Language Models (Copilot): unexpected error: socket hang up");
    const { api } = fakeVscode([
      {
        id: "gpt-test",
        async *answer() {
          yield new TextPart("part");
          throw new LanguageModelError("the provider broke", "Unknown");
        },
      },
    ]);
    const chunks: ApiStreamChunk[] = [];
    const midway = await failure(
      (async function* () {
        for await (const chunk of handler(api).createMessage("sys", USER)) yield (chunks.push(chunk), chunk);
      })(),
    );
    expect(chunks).toEqual([{ type: "text", text: "part" }]);
    expect(midway.kind).toBe("unknown");
  });
});

describe("VS Code's model list", () => {
  it("lists each model once with its input limit as the window, a modest output limit and no prices", async () => {
    const { api } = fakeVscode([
      { id: "gpt-4.1", name: "GPT-4.1", vendor: "copilot", maxInputTokens: 111_000, capabilities: { supportsToolCalling: true } },
      { id: "gpt-4.1", name: "again" },
      { id: "tiny", name: "", vendor: "", maxInputTokens: 2_000 },
      { id: "odd", name: "Odd", vendor: "x", maxInputTokens: Number.NaN },
    ]);
    const models = await listVscodeChatModels(api.lm);
    expect(models.map((m) => [m.id, m.name, m.info.contextWindow, m.info.maxOutputTokens, m.supportsTools])).toEqual([
      ["gpt-4.1", "GPT-4.1 (copilot)", 111_000, VSCODE_LM_MAX_OUTPUT_TOKENS, true],
      ["tiny", "tiny", 2_000, 1_000, undefined],
      ["odd", "Odd (x)", undefined, VSCODE_LM_MAX_OUTPUT_TOKENS, undefined],
    ]);
    expect(models[0]?.info).toMatchObject({ inputPrice: 0, outputPrice: 0, supportsImages: false });
  });

  it("tells when the set of models changed, until disposed", () => {
    const listeners = new Set<() => void>();
    const lm = {
      onDidChangeChatModels: ((listener: () => void) => {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      }) as unknown as vscode.Event<void>,
    };
    let heard = 0;
    const subscription = onVscodeChatModelsChanged(lm, () => heard++);
    for (const listener of listeners) listener();
    subscription.dispose();
    for (const listener of listeners) listener();
    expect(heard).toBe(1);
  });
});
