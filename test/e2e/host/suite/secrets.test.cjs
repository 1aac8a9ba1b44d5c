/* global describe, it, before, after */
/**
 * Tandem's API keys in VS Code's SecretStorage (src/host/vscode/secret-store.ts) in the real
 * extension host: a key round-trips, "" deletes it, and it never lands in the settings.
 */
const assert = require("node:assert/strict");
const { randomUUID } = require("node:crypto");
const vscode = require("vscode");
const { tandemExports, waitFor } = require("./tandem.cjs");

/** The user settings.json as VS Code holds it (opened through its own command, whatever the scheme). */
async function userSettingsText() {
  await vscode.commands.executeCommand("workbench.action.openSettingsJson");
  await waitFor("the user settings.json editor", () => /settings\.json$/.test(vscode.window.activeTextEditor?.document.uri.path ?? ""));
  const document = /** @type {vscode.TextDocument} */ (vscode.window.activeTextEditor?.document);
  const onDisk = Buffer.from(await vscode.workspace.fs.readFile(document.uri)).toString("utf8");
  await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  return { uri: document.uri.toString(), text: document.getText(), onDisk };
}

describe("Tandem's API keys in SecretStorage", () => {
  /** @type {import("../../../../src/host/vscode/secret-store").VscodeSecretStore} */
  let secrets;
  /** @type {import("../../../../src/host/vscode/settings-store").VscodeSettingsStore} */
  let settings;
  const key = `sk-ant-e2e-${randomUUID()}`;

  before(async () => {
    ({ secrets, settings } = await tandemExports());
  });

  after(async () => {
    await secrets.setApiKey("anthropic", "");
  });

  it("stores a key, gives it back, and deletes it when set to empty", async () => {
    assert.equal(await secrets.getApiKey("openai"), undefined, "no OpenAI key before the test");
    await secrets.setApiKey("anthropic", `  ${key}\n`);
    assert.equal(await secrets.getApiKey("anthropic"), key, "the key comes back, trimmed");
    assert.equal(await secrets.getApiKey("openai"), undefined, "each provider has its own key");

    await secrets.setApiKey("anthropic", "");
    assert.equal(await secrets.getApiKey("anthropic"), undefined, "an empty key deletes it");
  });

  it("refuses an unknown provider, or one that takes no key, instead of storing a stray secret", async () => {
    await assert.rejects(secrets.setApiKey("mistral", key), /Unknown API provider "mistral"/);
    await assert.rejects(secrets.getApiKey("mistral"), /Unknown API provider/);
    await assert.rejects(secrets.setApiKey("ollama", key), /Ollama takes no API key/);
  });

  it("keeps the key of each provider that takes one under its own name", async () => {
    for (const provider of ["gemini", "bedrock", "openrouter"]) {
      await secrets.setApiKey(provider, `${key}-${provider}`);
      assert.equal(await secrets.getApiKey(provider), `${key}-${provider}`, provider);
      await secrets.setApiKey(provider, "");
      assert.equal(await secrets.getApiKey(provider), undefined, `${provider}: an empty key deletes it`);
    }
  });

  it("never writes the key into the settings", async function () {
    this.timeout(30_000); // a settings write and an editor: slow when the machine is busy
    await secrets.setApiKey("anthropic", key);
    // A settings change while the key is stored makes VS Code write settings.json.
    const model = `e2e-model-${randomUUID()}`;
    await settings.updateApiSettings({ modelId: model });
    try {
      assert.equal(settings.getApiSettings().modelId, model);
      const user = await userSettingsText();
      console.log(`      user settings file: ${user.uri}`);
      assert.ok(user.onDisk.includes(model), "the settings change reached the user settings.json");
      assert.ok(!user.onDisk.includes(key) && !user.text.includes(key), "the key is not in settings.json");
      assert.doesNotMatch(user.onDisk, /tandem\.[\w.]*api-?key/i, "settings.json has no tandem API key entry");

      const tandem = vscode.workspace.getConfiguration("tandem");
      const text = JSON.stringify(tandem);
      assert.ok(!text.includes(key), "the key is not among the tandem.* settings");
      assert.doesNotMatch(text, /"api-?key"/i, `no tandem.* setting is a key: ${text}`);
      assert.equal(await secrets.getApiKey("anthropic"), key, "the key is still in SecretStorage");
    } finally {
      await settings.updateApiSettings({ modelId: null });
    }
    assert.equal(settings.getApiSettings().modelId, undefined, "the test's model setting is removed again");
  });
});
