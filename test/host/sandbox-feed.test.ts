import { describe, expect, it } from "vitest";
import { MemorySettingsStore } from "../../src/core/controller/stores";
import { SandboxFeed, type SandboxService } from "../../src/host/vscode/sandbox-feed";
import type { SandboxStatus } from "../../src/shared/sandbox-status";
import { DEFAULT_AGENT_SETTINGS, type SandboxSettings } from "../../src/shared/settings";

function statusFor(settings: SandboxSettings): SandboxStatus {
  const active = settings.mode !== "off";
  return {
    mode: settings.mode,
    available: true,
    active,
    refusesCommands: false,
    technology: "bubblewrap",
    network: settings.network,
    allowedDomains: settings.allowedDomains,
    writableFolders: settings.writableFolders,
    deniedReads: ["~/.ssh"],
  };
}

/** A sandbox whose check ends when the test says, recording the settings it was given. */
class FakeSandbox implements SandboxService {
  readonly updates: SandboxSettings[] = [];
  disposed = false;
  private endCheck!: () => void;
  private readonly check = new Promise<void>((resolve) => (this.endCheck = resolve));
  private current: SandboxStatus;

  constructor(settings: SandboxSettings) {
    this.current = statusFor(settings);
  }

  finishCheck(): void {
    this.endCheck();
  }

  async settled(): Promise<SandboxStatus> {
    await this.check;
    return this.current;
  }

  async update(settings: SandboxSettings): Promise<SandboxStatus> {
    await this.check;
    this.updates.push(settings);
    this.current = statusFor(settings);
    return this.current;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }
}

function setup() {
  const settings = new MemorySettingsStore({ ...DEFAULT_AGENT_SETTINGS }, { provider: "anthropic" });
  const sandbox = new FakeSandbox(DEFAULT_AGENT_SETTINGS.sandbox);
  const posted: SandboxStatus[] = [];
  const errors: unknown[] = [];
  const feed = new SandboxFeed(sandbox, settings, (status) => posted.push(status), (error) => errors.push(error));
  return { settings, sandbox, posted, errors, feed };
}

describe("SandboxFeed", () => {
  it("posts nothing while the machine is checked, then the checked state", async () => {
    const { sandbox, posted, feed } = setup();
    feed.repost();
    await Promise.resolve();
    expect(posted).toEqual([]);
    expect(feed.status).toBeUndefined();
    sandbox.finishCheck();
    await feed.settled();
    expect(posted).toEqual([statusFor(DEFAULT_AGENT_SETTINGS.sandbox)]);
  });

  it("hands changed sandbox settings to the sandbox and posts what it does then; other settings do not touch it", async () => {
    const { settings, sandbox, posted, feed } = setup();
    sandbox.finishCheck();
    await feed.settled();
    await settings.updateAgentSettings({ mistakeLimit: 9 });
    const off = { ...DEFAULT_AGENT_SETTINGS.sandbox, mode: "off" as const };
    await settings.updateAgentSettings({ sandbox: off });
    const none = { ...off, network: "none" as const };
    await settings.updateAgentSettings({ sandbox: none });
    await feed.settled();
    expect(sandbox.updates).toEqual([off, none]);
    expect(posted.map((s) => [s.mode, s.active, s.network])).toEqual([
      ["auto", true, "allowList"],
      ["off", false, "allowList"],
      ["off", false, "none"],
    ]);
  });

  it("posts the state again for a page that loads, and stops when disposed (disposing the sandbox)", async () => {
    const { sandbox, posted, feed } = setup();
    sandbox.finishCheck();
    await feed.settled();
    feed.repost();
    expect(posted).toHaveLength(2);
    feed.dispose();
    feed.repost();
    expect(posted).toHaveLength(2);
    expect(sandbox.disposed).toBe(true);
  });

  it("reports a failed update instead of leaving a rejection unhandled", async () => {
    const { settings, sandbox, errors, feed } = setup();
    sandbox.finishCheck();
    sandbox.update = () => Promise.reject(new Error("proxy failed to start"));
    await settings.updateAgentSettings({ sandbox: { ...DEFAULT_AGENT_SETTINGS.sandbox, network: "all" } });
    await feed.settled();
    expect(errors).toEqual([new Error("proxy failed to start")]);
  });
});
