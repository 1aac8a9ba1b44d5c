/* global describe, it, before */
const assert = require("node:assert/strict");
const vscode = require("vscode");

const EXTENSION_ID = "tandem.tandem";

describe("Tandem in a real extension host", () => {
  /** @type {import("vscode").Extension<unknown>} */
  let extension;

  before(() => {
    const found = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is not among the loaded extensions`);
    extension = found;
  });

  it("runs in the Node extension host with the workspace folder open", () => {
    assert.equal(typeof process.versions.node, "string");
    assert.equal(vscode.workspace.workspaceFolders?.length, 1);
    assert.equal(extension.extensionKind, vscode.ExtensionKind.Workspace);
  });

  it("activates without an error", async () => {
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it("contributes the Tandem view container and its chat view", () => {
    const { viewsContainers, views } = extension.packageJSON.contributes;
    assert.ok(viewsContainers.activitybar.some((c) => c.id === "tandem" && c.title === "Tandem"));
    assert.ok(views.tandem.some((v) => v.id === "tandem.chatView" && v.type === "webview"));
  });

  it("opens the chat view through its focus command", async () => {
    await vscode.commands.executeCommand("tandem.chatView.focus");
  });
});
