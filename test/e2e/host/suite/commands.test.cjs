/* global describe, it, before */
const assert = require("node:assert/strict");
const vscode = require("vscode");

describe("Tandem's commands", () => {
  /** @type {string[]} */
  let contributed;

  before(async () => {
    const extension = vscode.extensions.getExtension("tandem.tandem");
    assert.ok(extension, "tandem.tandem is loaded");
    await extension.activate();
    contributed = extension.packageJSON.contributes.commands.map((c) => c.command);
  });

  it("contributes at least the New Task command", () => {
    assert.ok(contributed.includes("tandem.newTask"), `contributed: ${contributed.join(", ")}`);
  });

  it("registers every command package.json contributes", async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(", ")}`);
  });
});
