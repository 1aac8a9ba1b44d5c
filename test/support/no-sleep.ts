import { afterEach } from "vitest";

/**
 * The unit project waits in no real time: a timer of SLEEP_MS or more that fires is a sleep, and
 * fails the test it fired in (fake timers, `vi.useFakeTimers()`, replace this one and are welcome). Timers that
 * are set as deadlines and cleared before they fire cost nothing and pass. Not for the webview
 * project: its UI libraries keep debounce timers of their own that fire after a test moved on.
 */
const SLEEP_MS = 200;
const slept: string[] = [];
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = Object.assign(
  function setTimeout(callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) {
    if (typeof callback !== "function" || !delay || delay < SLEEP_MS) return realSetTimeout(callback, delay, ...args);
    const where = new Error().stack?.split("\n").slice(2, 4).join(" <- ").trim() ?? "";
    return realSetTimeout(
      (...callArgs: unknown[]) => {
        slept.push(`a ${delay} ms timer fired (${where})`);
        callback(...callArgs);
      },
      delay,
      ...args,
    );
  },
  realSetTimeout,
) as typeof globalThis.setTimeout;

afterEach(() => {
  if (slept.length === 0) return;
  const found = slept.splice(0);
  throw new Error(`a unit test waited in real time: ${found.join("; ")}. Use vi.useFakeTimers() or wait for an event, or move the test to the integration project`);
});
