/* global describe, it, before, after */
/**
 * The sandbox's settings through VS Code's real configuration: what the panel writes comes back
 * through the store, key by key. VS Code keeps settings as one tree, so a key that prefixes others
 * (a `tandem.sandbox` beside `tandem.sandbox.network`) would lose one of them: the mode is
 * `tandem.sandbox.mode`, and each key must read back on its own.
 */
const assert = require("node:assert/strict");
const vscode = require("vscode");
const { tandemExports } = require("./tandem.cjs");

describe("Tandem's sandbox settings in VS Code's configuration", () => {
  /** @type {import("../../../../src/host/vscode/settings-store").VscodeSettingsStore} */
  let settings;
  /** @type {import("../../../../src/shared/settings").SandboxSettings} */
  let before_;

  before(async () => {
    ({ settings } = await tandemExports());
    before_ = settings.getAgentSettings().sandbox;
  });

  after(async () => {
    const tandem = vscode.workspace.getConfiguration("tandem");
    for (const key of ["sandbox.mode", "sandbox.network", "sandbox.allowedDomains", "sandbox.writableFolders", "autoApprove.runOutsideSandbox"]) {
      await tandem.update(key, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("reads the declared defaults", () => {
    const tandem = vscode.workspace.getConfiguration("tandem");
    const declared = (key) => tandem.inspect(key)?.defaultValue;
    assert.deepEqual(before_, {
      mode: declared("sandbox.mode"),
      network: declared("sandbox.network"),
      allowedDomains: declared("sandbox.allowedDomains"),
      writableFolders: declared("sandbox.writableFolders"),
    });
    assert.equal(before_.mode, "auto", "the sandbox is on by default where the machine has one");
    assert.equal(settings.getAgentSettings().autoApproval.runOutsideSandbox, false);
  });

  it("writes each sandbox setting to its own key and reads all of them back", async function () {
    this.timeout(30_000);
    const changed = { mode: "off", network: "none", allowedDomains: ["api.github.com", "*.example.com"], writableFolders: ["~/.npm"] };
    await settings.updateAgentSettings({ sandbox: changed, autoApproval: { ...settings.getAgentSettings().autoApproval, runOutsideSandbox: true } });
    assert.deepEqual(settings.getAgentSettings().sandbox, changed);
    assert.equal(settings.getAgentSettings().autoApproval.runOutsideSandbox, true);
    const tandem = vscode.workspace.getConfiguration("tandem");
    assert.equal(tandem.get("sandbox.mode"), "off");
    assert.equal(tandem.get("sandbox.network"), "none");
    assert.deepEqual(tandem.get("sandbox"), { mode: "off", network: "none", allowedDomains: changed.allowedDomains, writableFolders: changed.writableFolders });
  });

  it("refuses a domain with a scheme before anything is written", async () => {
    const now = settings.getAgentSettings().sandbox;
    await assert.rejects(settings.updateAgentSettings({ sandbox: { ...now, allowedDomains: ["https://pypi.org"] } }), /has a scheme: write the domain alone, "pypi.org"/);
    assert.deepEqual(settings.getAgentSettings().sandbox, now);
  });
});
