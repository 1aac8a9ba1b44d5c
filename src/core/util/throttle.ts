/**
 * Runs the latest pushed action at most once per interval, and always runs the last one
 * (trailing edge), so a streamed message ends up showing its final partial state. Actions run
 * one after another in push order.
 */
export class Throttle {
  private lastRun = Number.NEGATIVE_INFINITY;
  private pending: (() => Promise<void>) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  push(action: () => Promise<void>): void {
    const wait = this.lastRun + this.intervalMs - Date.now();
    if (wait <= 0 && !this.timer) {
      this.run(action);
      return;
    }
    this.pending = action;
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
    if (action) this.run(action);
  }

  private run(action: () => Promise<void>): void {
    this.lastRun = Date.now();
    this.chain = this.chain.then(() => action().catch(this.onError));
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
