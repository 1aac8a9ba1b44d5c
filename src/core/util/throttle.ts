/**
 * Runs the latest pushed action at most once per interval, and always runs the last one
 * (trailing edge), so a streamed message ends up showing its final partial state. Actions run
 * one after another in push order.
 *
 * Showing a streamed row costs time in proportion to its size (the webview re-renders it, the
 * editor diffs it). With `bytesPerSecond`, the pause after an action grows with the size it
 * showed, so the cost of showing stays a constant number of bytes per second, however large
 * the row gets: streaming an answer of n bytes costs O(n) in all, not O(n²).
 */
export interface ThrottleOptions {
  /** Shortest pause between two runs. */
  readonly intervalMs: number;
  /** After an action that showed `size` bytes, wait at least size / bytesPerSecond. */
  readonly bytesPerSecond?: number;
}

export class Throttle {
  private lastRun = Number.NEGATIVE_INFINITY;
  /** The pause the last run asked for. */
  private pause = 0;
  private pending: (() => Promise<void>) | undefined;
  private pendingSize = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly options: ThrottleOptions;

  constructor(
    options: ThrottleOptions | number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.options = typeof options === "number" ? { intervalMs: options } : options;
  }

  /** `size`: how many bytes the action shows (0 when it does not matter). */
  push(action: () => Promise<void>, size = 0): void {
    const wait = this.lastRun + this.pause - Date.now();
    if (wait <= 0 && !this.timer) {
      this.run(action, size);
      return;
    }
    this.pending = action;
    this.pendingSize = size;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.runPending();
    }, Math.max(0, wait));
  }

  /** Runs anything pending now; resolves when every action pushed so far has finished. */
  async flush(): Promise<void> {
    this.cancelTimer();
    this.runPending();
    await this.chain;
  }

  /** Drops anything pending (its update is superseded). */
  cancel(): void {
    this.cancelTimer();
    this.pending = undefined;
  }

  private runPending(): void {
    const action = this.pending;
    this.pending = undefined;
    if (action) this.run(action, this.pendingSize);
  }

  private run(action: () => Promise<void>, size: number): void {
    this.lastRun = Date.now();
    const { intervalMs, bytesPerSecond } = this.options;
    this.pause = bytesPerSecond ? Math.max(intervalMs, (size * 1000) / bytesPerSecond) : intervalMs;
    this.chain = this.chain.then(() => action().catch(this.onError));
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
