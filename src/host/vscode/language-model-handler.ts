/**
 * The `vscode-lm` provider: Tandem's requests go to a chat model VS Code offers through its
 * Language Model API (`vscode.lm`), e.g. GitHub Copilot's models, billed by the person's
 * subscription. The first request to a model makes VS Code ask the person whether Tandem may use
 * it; a refusal is an `auth` failure that says where to allow it.
 *
 * What the handler uses of the `vscode` module is handed in (`LanguageModelApi`), so the unit tests
 * run it in plain Node against a fake; this file imports `vscode` for its types only.
 */
import type * as vscode from "vscode";
import type { ApiConfiguration } from "../../api/config";
import type { ApiError, ApiErrorKind } from "../../api/errors";
import { resolveModel } from "../../api/model-info";
import type {
  ApiHandler,
  ApiMessage,
  ApiStream,
  ApiStreamChunk,
  ContentBlock,
  ModelInfo,
  ToolResultBlock,
  ToolSpec,
} from "../../api/types";
import { PROVIDERS } from "../../shared/providers";

/** What the handler uses of the `vscode` module (the module itself in the extension, a fake in tests). */
export type LanguageModelApi = Pick<
  typeof vscode,
  | "LanguageModelChatMessage"
  | "LanguageModelTextPart"
  | "LanguageModelToolCallPart"
  | "LanguageModelToolResultPart"
  | "LanguageModelError"
  | "LanguageModelChatToolMode"
  | "CancellationTokenSource"
> & { readonly lm: Pick<typeof vscode.lm, "selectChatModels"> };

export interface VscodeLmDeps {
  readonly vscode: LanguageModelApi;
  /**
   * The core's ApiError class. The core tells failures apart with `instanceof`, and it is a bundle
   * of its own (dist/core.js): an ApiError of this file's bundle would count as an unknown error.
   */
  readonly ApiError: typeof ApiError;
}

const PROVIDER = PROVIDERS["vscode-lm"].name;

/** Shown in VS Code's consent dialog, under "Justification:". */
export const JUSTIFICATION =
  "Tandem sends this model your task, its conversation and the results of the tools it runs (files it reads, command output) to carry out the tasks you give it.";

/** Where a person allows a refused model later (VS Code 1.100: the Accounts menu, checked by e2e 41). */
const WHERE_TO_ALLOW =
  "allow it when VS Code asks, or in the Accounts menu (the person icon at the bottom of the activity bar): Language Models (the extension that provides the model), Manage Trusted Extensions";

/** Copilot's and other providers' wordings of a prompt that does not fit. */
const CONTEXT_OVERFLOW = [
  /context (?:length|window|limit|size)/i,
  /maximum context/i,
  /prompt is too long/i,
  /prompt token count/i,
  /max_prompt_tokens/i,
  /too many (?:input )?tokens/i,
  /token limit/i,
];
const RATE_LIMITED = [/\b429\b/, /rate.?limit/i, /too many requests/i];

/** A request in flight: one controller (what abort() and a stall act on) and VS Code's token, cancelled with it. */
interface Flight {
  readonly controller: AbortController;
  readonly source: vscode.CancellationTokenSource;
}

export class VscodeLmHandler implements ApiHandler {
  private readonly api: LanguageModelApi;
  private readonly errors: typeof ApiError;
  private model: { id: string; info: ModelInfo };
  /** Whether the info came from the settings' model list (it then wins over the model's maxInputTokens). */
  private readonly listedWindow: boolean;
  private readonly contextWindowOverride: number | undefined;
  private readonly idleTimeoutMs: number;
  private readonly flights = new Set<Flight>();

  constructor(config: ApiConfiguration, deps: VscodeLmDeps) {
    this.api = deps.vscode;
    this.errors = deps.ApiError;
    const id = config.modelId?.trim() ?? "";
    // No default: Copilot's models cost premium requests differently, so the person picks one.
    if (!id) throw new Error(`${PROVIDER}: no model is chosen: pick one of VS Code's models in Tandem's settings.`);
    // Prices stay 0: VS Code's models are paid for by the person's subscription, not per token.
    this.model = resolveModel("vscode-lm", id, config.contextWindowOverride, config.listedModel);
    this.listedWindow = config.listedModel?.contextWindow !== undefined;
    this.contextWindowOverride = config.contextWindowOverride;
    this.idleTimeoutMs = config.streamIdleTimeoutMs ?? 30_000;
  }

  getModel(): { id: string; info: ModelInfo } {
    return this.model;
  }

  abort(): void {
    for (const flight of this.flights) flight.controller.abort();
    this.flights.clear();
  }

  createMessage(systemPrompt: string, messages: readonly ApiMessage[], tools?: readonly ToolSpec[]): ApiStream {
    // Taken now, not when iteration starts, so an abort() in between still reaches it.
    const controller = new AbortController();
    const source = new this.api.CancellationTokenSource();
    controller.signal.addEventListener("abort", () => source.cancel(), { once: true });
    const flight = { controller, source };
    this.flights.add(flight);
    return this.stream(flight, systemPrompt, messages, tools);
  }

  private async *stream(flight: Flight, systemPrompt: string, messages: readonly ApiMessage[], tools: readonly ToolSpec[] | undefined): ApiStream {
    const { controller, source } = flight;
    let iterator: AsyncIterator<unknown> | undefined;
    let finished = false;
    try {
      if (messages.length === 0) throw this.error("bad_request", "there is no message to send.");
      const request = this.toRequest(systemPrompt, messages);
      const chat = await this.within(flight, () => this.selectModel(), this.idleTimeoutMs);
      const options: vscode.LanguageModelChatRequestOptions = {
        justification: JUSTIFICATION,
        ...(tools && tools.length > 0 ? { tools: tools.map(toChatTool), toolMode: this.api.LanguageModelChatToolMode.Auto } : {}),
      };
      // No idle timeout here: the first request to a model waits while the person answers VS Code's consent dialog.
      const response = await this.within(flight, () => chat.sendRequest(request, options, source.token), undefined);
      // Counted while the answer streams; an estimate by the model's own tokenizer.
      const inputTokens = this.countInput(chat, request, options.tools, source.token);
      const output: string[] = [];
      let calls = 0;
      iterator = response.stream[Symbol.asyncIterator]();
      const parts = iterator;
      for (;;) {
        const next = await this.within(flight, () => parts.next(), this.idleTimeoutMs);
        if (next.done) break;
        const part = next.value;
        if (part instanceof this.api.LanguageModelTextPart) {
          if (!part.value) continue;
          output.push(part.value);
          yield { type: "text", text: part.value };
        } else if (part instanceof this.api.LanguageModelToolCallPart) {
          const args = JSON.stringify(part.input ?? {});
          output.push(part.name, args);
          yield { type: "tool_calls", index: calls++, id: part.callId, name: part.name, argumentsDelta: args };
        }
        // Other parts (data, thinking in later VS Code versions) carry nothing Tandem shows.
      }
      // VS Code's stream just ends when cancelled; that is not a finished answer.
      if (controller.signal.aborted) throw this.aborted();
      finished = true;
      const usage = await this.usage(flight, chat, inputTokens, output.join(""));
      if (usage) yield usage;
      yield { type: "stop", reason: calls > 0 ? "tool_use" : "end_turn" };
    } catch (error) {
      throw this.classify(error, controller.signal.aborted);
    } finally {
      this.flights.delete(flight);
      if (!finished) {
        controller.abort();
        // Let VS Code release the response; after the cancel whatever it raises is only its echo.
        iterator?.return?.().then(undefined, () => undefined);
      }
      source.dispose();
    }
  }

  /** The model by the id in the settings; an id of the form vendor/family picks by those. */
  private async selectModel(): Promise<vscode.LanguageModelChat> {
    const { id } = this.model;
    const { lm } = this.api;
    let [chat] = await lm.selectChatModels({ id });
    const slash = id.indexOf("/");
    if (!chat && slash > 0) [chat] = await lm.selectChatModels({ vendor: id.slice(0, slash), family: id.slice(slash + 1) });
    if (chat) {
      this.learnWindow(chat);
      return chat;
    }
    const offered = await lm.selectChatModels();
    if (offered.length === 0) {
      throw this.error(
        "bad_request",
        "VS Code offers no language model. Install GitHub Copilot Chat and sign in to it (or install another extension that provides chat models), then pick a model in Tandem's settings.",
      );
    }
    const ids = offered.slice(0, 10).map((model) => model.id).join(", ");
    throw this.error("bad_request", `the model "${id}" is not available in VS Code (it offers: ${ids}${offered.length > 10 ? ", …" : ""}): pick another in Tandem's settings.`);
  }

  /** The model's own input limit, when the settings' list did not say and the person set none. */
  private learnWindow(chat: vscode.LanguageModelChat): void {
    const window = chat.maxInputTokens;
    if (this.listedWindow || this.contextWindowOverride !== undefined || !Number.isInteger(window) || window <= 0) return;
    const info = { ...this.model.info, contextWindow: window, maxOutputTokens: Math.min(this.model.info.maxOutputTokens, Math.floor(window / 2)) };
    this.model = { id: this.model.id, info };
  }

  /**
   * Tandem's history as VS Code messages. The API has no system role (only the proposed
   * `languageModelSystem` API has one), so the system prompt goes first, as a user message.
   */
  private toRequest(systemPrompt: string, messages: readonly ApiMessage[]): vscode.LanguageModelChatMessage[] {
    const { LanguageModelChatMessage } = this.api;
    const out: vscode.LanguageModelChatMessage[] = [];
    if (systemPrompt.trim()) out.push(LanguageModelChatMessage.User([new this.api.LanguageModelTextPart(systemPrompt)]));
    for (const message of messages) {
      const blocks: readonly ContentBlock[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
      if (message.role === "assistant") {
        const parts = this.assistantParts(blocks);
        if (parts.length > 0) out.push(LanguageModelChatMessage.Assistant(parts));
      } else {
        const parts = this.userParts(blocks);
        if (parts.length > 0) out.push(LanguageModelChatMessage.User(parts));
      }
    }
    return out;
  }

  private assistantParts(blocks: readonly ContentBlock[]): (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] {
    const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
    for (const block of blocks) {
      if (block.type === "text" && block.text) parts.push(new this.api.LanguageModelTextPart(block.text));
      else if (block.type === "tool_use") parts.push(new this.api.LanguageModelToolCallPart(block.id, block.name, block.input));
      // Thinking is signed for the provider that wrote it; VS Code's API has no place for it.
    }
    return parts;
  }

  private userParts(blocks: readonly ContentBlock[]): (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[] {
    const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[] = [];
    for (const block of blocks) {
      if (block.type === "text" && block.text) parts.push(new this.api.LanguageModelTextPart(block.text));
      else if (block.type === "tool_result") parts.push(this.toolResult(block));
      else if (block.type === "image") {
        // VS Code 1.100's API takes text only (images are the proposed `languageModelDataPart`).
        throw this.error("bad_request", "VS Code's language model API cannot take images: remove the image, or use a provider that takes images.");
      }
    }
    return parts;
  }

  private toolResult(block: ToolResultBlock): vscode.LanguageModelToolResultPart {
    const content = typeof block.content === "string" ? [block.content] : block.content.map((part) =>
      // A tool's image cannot be sent either; the model is told, rather than the whole task failing on it.
      part.type === "text" ? part.text : "(an image the tool returned is left out: VS Code's language model API takes text only)",
    );
    const text = content.join("\n");
    // The stable API has no error flag on a tool result; say it in the text, as for OpenAI.
    const value = block.isError ? `Error: ${text}` : text;
    return new this.api.LanguageModelToolResultPart(block.toolUseId, [new this.api.LanguageModelTextPart(value)]);
  }

  private countInput(
    chat: vscode.LanguageModelChat,
    request: readonly vscode.LanguageModelChatMessage[],
    tools: readonly vscode.LanguageModelChatTool[] | undefined,
    token: vscode.CancellationToken,
  ): Promise<number | undefined> {
    // Through a promise, so a count that throws at once (the model gone) is a failed count too.
    const count = (text: string | vscode.LanguageModelChatMessage) => Promise.resolve().then(() => chat.countTokens(text, token));
    const counts = request.map(count);
    if (tools && tools.length > 0) counts.push(count(JSON.stringify(tools)));
    // Usage is an estimate: a failed count leaves it out, it never fails the answer.
    return Promise.all(counts).then(
      (numbers) => numbers.reduce((sum, n) => sum + n, 0),
      () => undefined,
    );
  }

  private async usage(flight: Flight, chat: vscode.LanguageModelChat, input: Promise<number | undefined>, output: string): Promise<ApiStreamChunk | undefined> {
    const outputTokens = output
      ? Promise.resolve()
          .then(() => chat.countTokens(output, flight.source.token))
          .then(undefined, () => undefined)
      : Promise.resolve(0);
    const [inputTokens, outputCount] = await this.within(flight, () => Promise.all([input, outputTokens]), this.idleTimeoutMs);
    if (inputTokens === undefined && outputCount === undefined) return undefined;
    // Copilot bills by subscription: no per-token price, so the cost is 0.
    return { type: "usage", inputTokens: inputTokens ?? 0, outputTokens: outputCount ?? 0, cacheWriteTokens: 0, cacheReadTokens: 0, totalCost: 0 };
  }

  /** Awaits `start()` unless an abort, or the idle timeout when one is given, comes first. */
  private async within<T>(flight: Flight, start: () => PromiseLike<T>, idleTimeoutMs: number | undefined): Promise<T> {
    const { signal } = flight.controller;
    if (signal.aborted) throw this.aborted();
    type Outcome = { kind: "value"; value: T } | { kind: "error"; error: unknown } | { kind: "stalled" } | { kind: "aborted" };
    // Both outcomes are captured, so a promise that loses the race never rejects unhandled.
    const settled = Promise.resolve()
      .then(start)
      .then(
        (value): Outcome => ({ kind: "value", value }),
        (error: unknown): Outcome => ({ kind: "error", error }),
      );
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const interrupted = new Promise<Outcome>((resolve) => {
      if (idleTimeoutMs !== undefined) timer = setTimeout(() => resolve({ kind: "stalled" }), idleTimeoutMs);
      onAbort = () => resolve({ kind: "aborted" });
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      const outcome = await Promise.race([settled, interrupted]);
      if (outcome.kind === "value") return outcome.value;
      if (outcome.kind === "error") throw outcome.error;
      if (outcome.kind === "aborted") throw this.aborted();
      flight.controller.abort();
      throw this.error("stalled", `no data arrived for ${idleTimeoutMs} ms; the request was cancelled`);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener("abort", onAbort);
    }
  }

  /** What VS Code or the model's extension threw, as an ApiError with a kind. */
  private classify(error: unknown, aborted: boolean): ApiError {
    if (error instanceof this.errors) return error;
    if (aborted) return this.aborted(error);
    const message = errorMessage(error);
    const said = [message, errorMessage((error as { cause?: unknown } | undefined)?.cause)].join(" ");
    if (this.isLanguageModelError(error)) {
      const { id } = this.model;
      switch (error.code) {
        case "NoPermissions":
          return this.error("auth", `VS Code did not let Tandem use the model "${id}": ${WHERE_TO_ALLOW}. (${message})`, error);
        case "Blocked":
          return this.error("rate_limited", `VS Code blocked the request to "${id}", which usually means its quota is used up for now: ${message}`, error);
        case "NotFound":
          return this.error("bad_request", `the model "${id}" is no longer available: pick another in Tandem's settings. (${message})`, error);
      }
    }
    if (CONTEXT_OVERFLOW.some((pattern) => pattern.test(said))) {
      return this.error("context_window_exceeded", `the conversation is too long for the model's context window: ${message}`, error);
    }
    if (RATE_LIMITED.some((pattern) => pattern.test(said))) return this.error("rate_limited", `rate limit reached: ${message}`, error);
    return this.error("unknown", `unexpected error: ${message}`, error);
  }

  /** By class, or by name for one revived by another copy of the API. */
  private isLanguageModelError(error: unknown): error is vscode.LanguageModelError {
    return error instanceof this.api.LanguageModelError || (error instanceof Error && error.name === "LanguageModelError" && typeof (error as { code?: unknown }).code === "string");
  }

  private error(kind: ApiErrorKind, message: string, cause?: unknown): ApiError {
    return new this.errors(kind, `${PROVIDER}: ${message}`, { cause });
  }

  private aborted(cause?: unknown): ApiError {
    return this.error("aborted", "the request was cancelled", cause);
  }
}

function toChatTool(tool: ToolSpec): vscode.LanguageModelChatTool {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}

function errorMessage(error: unknown): string {
  if (error === undefined || error === null) return "";
  return error instanceof Error ? error.message : String(error);
}
