/**
 * A handler whose provider SDK is loaded on its first request. Gemini's, Bedrock's and Vertex's
 * SDKs (Google's and AWS's auth libraries with them) weigh more than the rest of the CLI's start:
 * a person who never picks them never loads them. The configuration is checked before, so a wrong
 * setting still fails at once; an abort() before the SDK is loaded still ends the request unsent.
 */
import type { ResolvedConfiguration } from "../config.js";
import { ApiError } from "../errors.js";
import { InFlightRequests } from "../stream-guard.js";
import type { ApiHandler, ApiMessage, ApiStream, ModelInfo, ToolSpec } from "../types.js";
import { PROVIDERS } from "../../shared/providers.js";

export class DeferredHandler implements ApiHandler {
  private handler: ApiHandler | undefined;
  private loading: Promise<ApiHandler> | undefined;
  /** Requests waiting for the SDK: abort() reaches them as it reaches the handler's own. */
  private readonly waiting = new InFlightRequests();

  constructor(
    private readonly config: ResolvedConfiguration,
    private readonly load: () => Promise<ApiHandler>,
    /** Known before the SDK is: what the loaded handler will do (an estimate needs it first). */
    readonly writesPromptCache = false,
  ) {}

  getModel(): { id: string; info: ModelInfo } {
    return this.config.model;
  }

  abort(): void {
    this.waiting.abortAll();
    this.handler?.abort();
  }

  createMessage(systemPrompt: string, messages: readonly ApiMessage[], tools?: readonly ToolSpec[]): ApiStream {
    // Taken now, so an abort() before the iteration starts is seen.
    const controller = this.waiting.begin();
    return this.stream(controller, systemPrompt, messages, tools);
  }

  private async *stream(controller: AbortController, systemPrompt: string, messages: readonly ApiMessage[], tools: readonly ToolSpec[] | undefined): ApiStream {
    let handler: ApiHandler;
    try {
      handler = await (this.loading ??= this.load().then((loaded) => (this.handler = loaded)));
    } finally {
      this.waiting.end(controller);
    }
    if (controller.signal.aborted) throw new ApiError("aborted", `${PROVIDERS[this.config.provider].name}: the request was cancelled`);
    yield* handler.createMessage(systemPrompt, messages, tools);
  }
}
