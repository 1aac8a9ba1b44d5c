/**
 * Keeps the command sandbox in step with `tandem.sandbox.*` and tells the panel what it does.
 * It owns the sandbox (one per extension host, created with the session): the panel hears its
 * state once the machine has been checked, again after each change of its settings, and again
 * whenever a page loads (a state delta posted while no page listens is dropped). Until the check
 * ends nothing is posted, so the panel never shows "being checked" as "not available".
 * Free of `vscode`, so it is tested in plain Node.
 */
import type { SettingsStore } from "../../core/controller/stores";
import type { SandboxStatus } from "../../shared/sandbox-status";
import type { SandboxSettings } from "../../shared/settings";
import { Disposable } from "../../core/util/disposable";

/** What the feed needs of core/sandbox's CommandSandbox. */
export interface SandboxService {
  /** The state once the machine has been checked (waiting for the check, not starting it). */
  settled(): Promise<SandboxStatus>;
  update(settings: SandboxSettings): Promise<SandboxStatus>;
  dispose(): Promise<void>;
}

export class SandboxFeed extends Disposable {
  private checked: SandboxStatus | undefined;
  private applied: string;
  /** Updates run one after another, so a slow one cannot post after a newer one. */
  private queue: Promise<unknown>;

  constructor(
    private readonly sandbox: SandboxService,
    private readonly settings: Pick<SettingsStore, "getAgentSettings" | "onDidChange">,
    private readonly post: (status: SandboxStatus) => void,
    private readonly onError: (error: unknown) => void,
  ) {
    super();
    this.applied = key(settings.getAgentSettings().sandbox);
    this.queue = this.settle(sandbox.settled());
    this._register(settings.onDidChange(() => this.settingsChanged()));
  }

  /** What the sandbox does, once checked; undefined before. */
  get status(): SandboxStatus | undefined {
    return this.checked;
  }

  /** A page loaded: it holds nothing yet. */
  repost(): void {
    if (this.checked && !this.isDisposed) this.post(this.checked);
  }

  /** Resolves once the pending check and updates have been posted. */
  async settled(): Promise<void> {
    await this.queue;
  }

  override dispose(): void {
    if (this.isDisposed) return;
    super.dispose();
    void this.sandbox.dispose();
  }

  private settingsChanged(): void {
    const next = this.settings.getAgentSettings().sandbox;
    if (key(next) === this.applied || this.isDisposed) return;
    this.applied = key(next);
    this.queue = this.queue.then(() => this.settle(this.sandbox.update(next)));
  }

  private async settle(pending: Promise<SandboxStatus>): Promise<void> {
    try {
      const status = await pending;
      if (this.isDisposed) return;
      this.checked = status;
      this.post(status);
    } catch (error) {
      this.onError(error);
    }
  }
}

const key = (settings: SandboxSettings): string => JSON.stringify(settings);
