import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Throttle } from "./throttle";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Pushes one action per millisecond for `ms` ms, each showing `size(i)` bytes; returns what ran. */
async function stream(throttle: Throttle, ms: number, size: (i: number) => number): Promise<number[]> {
  const ran: number[] = [];
  for (let i = 0; i < ms; i++) {
    throttle.push(async () => void ran.push(i), size(i));
    await vi.advanceTimersByTimeAsync(1);
  }
  await throttle.flush();
  return ran;
}

describe("Throttle", () => {
  it("runs the first action at once, then at most one per interval, and always the last", async () => {
    const ran = await stream(new Throttle(10, () => {}), 1000, () => 0);
    expect(ran[0]).toBe(0);
    expect(ran.at(-1)).toBe(999);
    expect(ran.length).toBeGreaterThanOrEqual(99);
    expect(ran.length).toBeLessThanOrEqual(102);
  });

  it("waits longer after showing a bigger row, so the bytes shown per second stay bounded", async () => {
    // A row growing by 1 KB a millisecond (1 MB/s) shown at 100 KB/s at most.
    const growing = (i: number) => (i + 1) * 1000;
    const ran = await stream(new Throttle({ intervalMs: 10, bytesPerSecond: 100_000 }, () => {}), 2000, growing);
    const shown = ran.reduce((sum, i) => sum + growing(i), 0);
    // 2 s at 100 KB/s, plus the first run, the last one and one interval's slack.
    expect(shown).toBeLessThanOrEqual(2 * 100_000 + 2 * growing(1999) + 10 * 1000);
    expect(ran.at(-1)).toBe(1999);
    // Without the size rule it would run every 10 ms.
    expect(ran.length).toBeLessThan(40);
  });

  it("drops what is pending on cancel, and flush waits for what already runs", async () => {
    const throttle = new Throttle(10, () => {});
    const ran: string[] = [];
    let release: () => void = () => {};
    throttle.push(() => new Promise<void>((resolve) => (release = () => (ran.push("first"), resolve()))));
    throttle.push(async () => void ran.push("superseded"));
    throttle.cancel();
    const flushed = throttle.flush();
    await vi.advanceTimersByTimeAsync(0); // the first action starts
    release();
    await flushed;
    expect(ran).toEqual(["first"]);
  });
});
