/**
 * Shared by the in-host suites: the objects Tandem's activate() returns (src/extension.ts,
 * TandemExports), the workspace folder, and small waits on VS Code's state.
 */
const assert = require("node:assert/strict");
const vscode = require("vscode");

const EXTENSION_ID = "tandem.tandem";

/** Activates Tandem and returns its exports: `{ host, secrets, settings }`. */
async function tandemExports() {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not among the loaded extensions`);
  const exports = await extension.activate();
  assert.ok(exports && exports.host && exports.secrets && exports.settings, "activate() returns { host, secrets, settings }");
  return exports;
}

/** The absolute path of the one workspace folder the runner opens. */
function workspaceRoot() {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, "a workspace folder is open");
  assert.equal(folder.uri.scheme, "file");
  return folder.uri.fsPath;
}

/**
 * Resolves once `condition()` is true; checks at once, then on every tick of `everyMs`.
 * Rejects naming `what` after `timeoutMs`.
 */
async function waitFor(what, condition, { timeoutMs = 5000, everyMs = 50 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Every diff editor tab open in any group. */
function diffTabs() {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputTextDiff);
}

/** Documents with unsaved changes (the file:// ones and any other scheme). */
function dirtyDocuments() {
  return vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString());
}

module.exports = { tandemExports, workspaceRoot, waitFor, diffTabs, dirtyDocuments };
