/**
 * Holds the one WebviewSession, created on first need (the view resolves or a command runs), so
 * activation stays cheap: the factory loads the core (core-bundle.ts). The session outlives
 * the view: closing or moving the panel disposes only the page, not the running task.
 */
import type { WebviewSession } from "../../core/controller/webview-session";

export class SessionHolder {
  private session: Promise<WebviewSession> | undefined;
  private disposed = false;
  private readonly willDispose: (() => void)[] = [];

  constructor(private readonly create: () => Promise<WebviewSession>) {}

  get(): Promise<WebviewSession> {
    if (this.disposed) return Promise.reject(new Error("Tandem is shutting down."));
    // A failed creation is not cached: the next command tries again.
    this.session ??= this.create().catch((error: unknown) => {
      this.session = undefined;
      throw error;
    });
    return this.session;
  }

  /** The session if one exists; undefined rather than creating one (nothing to cancel then). */
  current(): Promise<WebviewSession> | undefined {
    return this.session;
  }

  /** Runs before the session is disposed (the host is shutting down), while its task still runs. */
  onWillDispose(listener: () => void): void {
    this.willDispose.push(listener);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const listener of this.willDispose.splice(0)) listener();
    const pending = this.session;
    this.session = undefined;
    const session = await pending?.catch(() => undefined);
    await session?.dispose();
  }
}
