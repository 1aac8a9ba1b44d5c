/**
 * Runs a write at most once at a time and folds every request that arrives while one is in
 * flight into a single follow-up write. The write reads the latest state when it starts, so
 * a burst of N requests costs at most two writes and nothing is ever written out of order.
 */
export class CoalescingWriter {
  private dirty = false;
  private running: Promise<void> | undefined;

  constructor(
    private readonly write: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Asks for a write; resolves when the state as of this call is on disk. */
  request(): Promise<void> {
    this.dirty = true;
    this.running ??= this.drain();
    return this.running;
  }

  /** Resolves when no write is pending. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        try {
          await this.write();
        } catch (error) {
          this.onError(error);
        }
      }
    } finally {
      this.running = undefined;
    }
  }
}
