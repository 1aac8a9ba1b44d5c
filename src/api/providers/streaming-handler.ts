/**
 * What every provider handler shares: one AbortController per request (so `abort()` reaches all
 * of them, even one whose iteration has not started), the resolved model, and the guarded event
 * loop. A provider supplies how to open its stream, how to recognise its end marker, and how to
 * turn one raw event into chunks.
 */
import { classifyError } from "../classify-error.js";
import type { ResolvedConfiguration } from "../config.js";
import { withoutSecret, type ApiError } from "../errors.js";
import { guardStream, InFlightRequests } from "../stream-guard.js";
import type { ApiHandler, ApiMessage, ApiStream, ApiStreamChunk, ModelInfo, ToolSpec } from "../types.js";

export interface ProviderRequest<E> {
  /** Opens the provider's event stream (the SDK call), cancelled through `signal`. */
  open(signal: AbortSignal): PromiseLike<AsyncIterable<E>>;
  /** True for the event that proves the answer is complete. */
  isEndMarker(event: E): boolean;
  /** Turns one raw event into zero or more chunks. */
  read(event: E): Iterable<ApiStreamChunk>;
}

export abstract class StreamingApiHandler<E> implements ApiHandler {
  private readonly inFlight = new InFlightRequests();

  constructor(
    protected readonly config: ResolvedConfiguration,
    protected readonly providerName: string,
  ) {}

  getModel(): { id: string; info: ModelInfo } {
    return this.config.model;
  }

  abort(): void {
    this.inFlight.abortAll();
  }

  createMessage(systemPrompt: string, messages: readonly ApiMessage[], tools?: readonly ToolSpec[]): ApiStream {
    // Taken now, not when iteration starts, so an abort() in between still reaches it.
    const controller = this.inFlight.begin();
    return this.stream(controller, systemPrompt, messages, tools);
  }

  /** Turns what the SDK threw into an ApiError; a provider with errors of its own SDK overrides it. */
  protected classify(error: unknown, aborted: boolean): ApiError {
    return classifyError(error, { provider: this.providerName, aborted });
  }

  /** Checks the input and builds the request; throwing here fails the stream before any HTTP. */
  protected abstract prepare(systemPrompt: string, messages: readonly ApiMessage[], tools: readonly ToolSpec[] | undefined): ProviderRequest<E>;

  private async *stream(
    controller: AbortController,
    systemPrompt: string,
    messages: readonly ApiMessage[],
    tools: readonly ToolSpec[] | undefined,
  ): ApiStream {
    try {
      const request = this.prepare(systemPrompt, messages, tools);
      const provider = this.providerName;
      const events = guardStream<E>((signal) => request.open(signal), {
        controller,
        idleTimeoutMs: this.config.streamIdleTimeoutMs,
        provider,
        isEndMarker: (event) => request.isEndMarker(event),
        classify: (error, aborted) => withoutSecret(this.classify(error, aborted), this.config.apiKey),
      });
      for await (const event of events) yield* request.read(event);
    } finally {
      this.inFlight.end(controller);
    }
  }
}
