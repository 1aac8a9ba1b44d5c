/**
 * Guards a provider SDK's event stream against the failures the SDKs let through silently:
 * a stalled stream (their timeout only covers the wait for headers), a stream that ends
 * without the provider's end marker, and an abort (their iterators then just stop). Every
 * failure comes out as an ApiError, and an abort is noticed at once, even while the SDK is
 * still waiting on the socket.
 */
import { ApiError } from "./errors.js";

export interface StreamGuardOptions<E> {
  /** One per request: aborting it cancels the HTTP request. */
  controller: AbortController;
  /** Longest silence allowed while waiting for the response or for the next event. */
  idleTimeoutMs: number;
  /** Who answered, for messages, e.g. "Anthropic". */
  provider: string;
  /** True for the event that proves the answer is complete. */
  isEndMarker(event: E): boolean;
  /** Turns what the SDK threw into an ApiError. */
  classify(error: unknown, aborted: boolean): ApiError;
}

type Outcome<T> =
  | { readonly kind: "value"; value: T }
  | { readonly kind: "error"; error: unknown }
  | { readonly kind: "stalled" }
  | { readonly kind: "aborted" };

/**
 * Opens the stream with `open` and yields its events. Leaving the `for await` early, or
 * aborting the controller, cancels the request.
 */
export async function* guardStream<E>(
  open: (signal: AbortSignal) => PromiseLike<AsyncIterable<E>>,
  options: StreamGuardOptions<E>,
): AsyncGenerator<E, void, undefined> {
  const { controller } = options;
  let iterator: AsyncIterator<E> | undefined;
  let completed = false;
  try {
    const stream = await within(() => open(controller.signal), options);
    iterator = stream[Symbol.asyncIterator]();
    const source = iterator;
    let sawEnd = false;
    for (;;) {
      const result = await within(() => source.next(), options);
      if (result.done) break;
      if (options.isEndMarker(result.value)) sawEnd = true;
      yield result.value;
    }
    completed = true;
    // The SDKs end their iterator quietly when aborted; that is not a finished answer.
    if (controller.signal.aborted) throw abortedError(options.provider);
    if (!sawEnd) {
      throw new ApiError("truncated", `${options.provider}: the answer ended before it was complete (no end marker)`);
    }
  } finally {
    if (!completed) {
      controller.abort();
      // Let the SDK release the response; after the abort it settles at once, and an
      // error it raises now is only the echo of our own abort.
      iterator?.return?.().then(undefined, () => undefined);
    }
  }
}

/** Awaits `start()` unless the idle timeout or an abort comes first. */
async function within<T, E>(start: () => PromiseLike<T>, options: StreamGuardOptions<E>): Promise<T> {
  const { controller, idleTimeoutMs, provider } = options;
  if (controller.signal.aborted) throw abortedError(provider);
  // Both outcomes are captured, so a promise that loses the race never rejects unhandled.
  const settled = Promise.resolve()
    .then(start)
    .then(
      (value): Outcome<T> => ({ kind: "value", value }),
      (error: unknown): Outcome<T> => ({ kind: "error", error }),
    );
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const interrupted = new Promise<Outcome<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "stalled" }), idleTimeoutMs);
    onAbort = () => resolve({ kind: "aborted" });
    controller.signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const outcome = await Promise.race([settled, interrupted]);
    if (outcome.kind === "value") return outcome.value;
    if (outcome.kind === "error") throw options.classify(outcome.error, controller.signal.aborted);
    if (outcome.kind === "aborted") throw abortedError(provider);
    controller.abort();
    throw new ApiError("stalled", `${provider}: no data arrived for ${idleTimeoutMs} ms; the request was cancelled`);
  } finally {
    clearTimeout(timer);
    if (onAbort) controller.signal.removeEventListener("abort", onAbort);
  }
}

function abortedError(provider: string): ApiError {
  return new ApiError("aborted", `${provider}: the request was cancelled`);
}

/** The requests a handler has in flight, so that `abort()` reaches every one of them. */
export class InFlightRequests {
  private readonly controllers = new Set<AbortController>();

  begin(): AbortController {
    const controller = new AbortController();
    this.controllers.add(controller);
    return controller;
  }

  end(controller: AbortController): void {
    this.controllers.delete(controller);
  }

  abortAll(): void {
    for (const controller of this.controllers) controller.abort();
    this.controllers.clear();
  }
}
