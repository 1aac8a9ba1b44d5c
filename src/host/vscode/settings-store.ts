/**
 * SettingsStore over VS Code's configuration (`tandem.*`, declared in package.json). Changes from
 * the panel go to the user's global settings; edits to settings.json reach the session through
 * onDidChange. The API key is not a setting: it lives in SecretStorage (secret-store.ts).
 */
import * as vscode from "vscode";
import type { SettingsStore } from "../../core/controller/stores";
import type { ApiSettings } from "../../shared/protocol";
import type { AgentSettings } from "../../shared/settings";
import { Disposable } from "../../core/util/disposable";
import { agentSettingsEntries, apiSettingsEntries, readAgentSettings, readApiSettings, readNotificationsEnabled, type ConfigEntry, type ReadResult } from "./settings-keys";

const SECTION = "tandem";

export class VscodeSettingsStore extends Disposable implements SettingsStore {
  private readonly listeners = new Set<() => void>();
  /** Problems already reported, so one bad value is not reported on every read. */
  private reported = "";

  constructor(private readonly log: vscode.LogOutputChannel) {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(SECTION)) return;
        for (const listener of [...this.listeners]) listener();
      }),
    );
  }

  getAgentSettings(): AgentSettings {
    return this.checked(readAgentSettings(this.reader()));
  }

  getApiSettings(): ApiSettings {
    return this.checked(readApiSettings(this.reader()));
  }

  /** `tandem.notifications.enabled`: notifications while the window is in the background (attention-toasts.ts). */
  notificationsEnabled(): boolean {
    return this.checked(readNotificationsEnabled(this.reader()));
  }

  async updateAgentSettings(change: Partial<AgentSettings>): Promise<void> {
    await this.write(agentSettingsEntries(change));
  }

  async updateApiSettings(change: Partial<ApiSettings>): Promise<void> {
    await this.write(apiSettingsEntries(change));
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private reader(): (key: string) => unknown {
    const config = vscode.workspace.getConfiguration(SECTION);
    return (key) => config.get<unknown>(key);
  }

  private checked<T>(result: ReadResult<T>): T {
    const text = result.problems.join(" ");
    if (text && text !== this.reported) {
      this.log.warn(`Settings: ${text}`);
      void vscode.window.showWarningMessage(`Tandem: ${text}`);
    }
    this.reported = text;
    return result.value;
  }

  /** All entries were checked before the first is written, so a bad change writes nothing. */
  private async write(entries: readonly ConfigEntry[]): Promise<void> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const shadowed: string[] = [];
    for (const [key, value] of entries) {
      await config.update(key, value, vscode.ConfigurationTarget.Global);
      const where = config.inspect(key);
      if (where?.workspaceValue !== undefined || where?.workspaceFolderValue !== undefined) shadowed.push(`tandem.${key}`);
    }
    if (shadowed.length > 0) {
      // The change was saved, but the workspace's own value still wins: say so rather than look broken.
      const message = `Tandem: ${shadowed.join(", ")} ${shadowed.length > 1 ? "are" : "is"} also set in this workspace's settings, which take precedence over the change.`;
      this.log.warn(message);
      void vscode.window.showWarningMessage(message);
    }
  }
}
