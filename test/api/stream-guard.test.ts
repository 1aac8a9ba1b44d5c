/**
 * The stream guard on hand-made event sources, where each failure can be produced exactly:
 * the guard itself is under test here, the SDKs in anthropic.test.ts and openai.test.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import { guardStream, InFlightRequests, type StreamGuardOptions } from "../../src/api/stream-guard.js";

type Event = { type: "data" | "end"; n?: number };

function options(controller: AbortController, idleTimeoutMs = 1_000): StreamGuardOptions<Event> {
  return {
    controller,
    idleTimeoutMs,
    provider: "Test",
    isEndMarker: (event) => event.type === "end",
    classify: (error, aborted) =>
      new ApiError(aborted ? "aborted" : "unknown", error instanceof Error ? error.message : String(error), { cause: error }),
  };
}

/** Yields `events` then waits forever (until its signal is aborted), like a stalled socket. */
async function* source(events: Event[], signal: AbortSignal, hang = false): AsyncGenerator<Event> {
  for (const event of events) yield event;
  if (hang) {
    await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  }
}

async function collect(stream: AsyncIterable<Event>): Promise<{ events: Event[]; error?: ApiError }> {
  const events: Event[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    return { events, error: error as ApiError };
  }
}

/** The guard's idle timer, on a fake clock: a test moves time on instead of waiting for it. */
function fakeClock(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("guardStream", () => {
  it("passes every event through and ends after the end marker", async () => {
    const controller = new AbortController();
    const events: Event[] = [{ type: "data", n: 1 }, { type: "data", n: 2 }, { type: "end" }];
    const result = await collect(guardStream(async (signal) => source(events, signal), options(controller)));
    expect(result).toEqual({ events });
    expect(controller.signal.aborted).toBe(false);
  });

  it("throws `truncated` when the source ends without the end marker", async () => {
    const result = await collect(
      guardStream(async (signal) => source([{ type: "data" }], signal), options(new AbortController())),
    );
    expect(result.events).toHaveLength(1);
    expect(result.error?.kind).toBe("truncated");
  });

  it("throws `stalled` and aborts the request when the source goes quiet", async () => {
    fakeClock();
    const controller = new AbortController();
    const pending = collect(guardStream(async (signal) => source([{ type: "data" }], signal, true), options(controller, 50)));
    await vi.advanceTimersByTimeAsync(50);
    const result = await pending;
    expect(result.error?.kind).toBe("stalled");
    expect(controller.signal.aborted).toBe(true);
  });

  it("counts the wait for the response as idle time too", async () => {
    fakeClock();
    const never = () => new Promise<AsyncIterable<Event>>(() => undefined);
    const pending = collect(guardStream(never, options(new AbortController(), 50)));
    await vi.advanceTimersByTimeAsync(50);
    const result = await pending;
    expect(result.error?.kind).toBe("stalled");
  });

  it("throws `aborted` promptly when aborted while the source hangs, even if the source ignores the signal", async () => {
    const controller = new AbortController();
    const deaf = async function* (): AsyncGenerator<Event> {
      yield { type: "data" };
      await new Promise(() => undefined);
    };
    const pending = collect(guardStream(async () => deaf(), options(controller, 60_000)));
    // Once the first event is through (one turn of the event loop), the source hangs.
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const result = await pending;
    expect(result.error?.kind).toBe("aborted");
  });

  it("throws `aborted` rather than ending quietly when the source stops after an abort", async () => {
    const controller = new AbortController();
    const stopsOnAbort = async function* (): AsyncGenerator<Event> {
      yield { type: "data" };
      controller.abort();
    };
    const result = await collect(guardStream(async () => stopsOnAbort(), options(controller)));
    expect(result.error?.kind).toBe("aborted");
  });

  it("classifies what the source throws", async () => {
    const failing = async function* (): AsyncGenerator<Event> {
      yield { type: "data" };
      throw new Error("socket trouble");
    };
    const result = await collect(guardStream(async () => failing(), options(new AbortController())));
    expect(result.error).toMatchObject({ kind: "unknown", message: "socket trouble" });
  });

  it("aborts the request and closes the source when the consumer leaves early", async () => {
    const controller = new AbortController();
    let sourceClosed = false;
    const endless = async function* (): AsyncGenerator<Event> {
      try {
        for (let n = 0; ; n++) yield { type: "data", n };
      } finally {
        sourceClosed = true;
      }
    };
    for await (const event of guardStream(async () => endless(), options(controller))) {
      if (event.n === 2) break;
    }
    expect(controller.signal.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sourceClosed).toBe(true);
  });

  it("never opens the request when aborted before the first read", async () => {
    const controller = new AbortController();
    controller.abort();
    let opened = false;
    const result = await collect(
      guardStream(async (signal) => {
        opened = true;
        return source([], signal);
      }, options(controller)),
    );
    expect(result.error?.kind).toBe("aborted");
    expect(opened).toBe(false);
  });
});

describe("InFlightRequests", () => {
  it("aborts every request begun and not yet ended", () => {
    const inFlight = new InFlightRequests();
    const first = inFlight.begin();
    const second = inFlight.begin();
    const finished = inFlight.begin();
    inFlight.end(finished);
    inFlight.abortAll();
    expect([first.signal.aborted, second.signal.aborted, finished.signal.aborted]).toEqual([true, true, false]);
  });
});
