/* global describe, it */
const assert = require("node:assert/strict");
const vscode = require("vscode");

describe("self-check: a failing assertion in the extension host", () => {
  it("fails on purpose", () => {
    // The real API is loaded (so this runs in the host), and the assertion cannot hold.
    assert.equal(typeof vscode.version, "string");
    assert.equal(vscode.workspace.name, "a workspace that does not exist");
  });
});
