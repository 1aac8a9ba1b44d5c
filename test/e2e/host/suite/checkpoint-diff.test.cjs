/* global describe, it, before, afterEach */
/**
 * Tandem's checkpoint diff (src/host/vscode/checkpoint-diff.ts) in the real editor: several files go
 * to the multi-file diff editor (vscode.changes) with the checkpoint's text read-only on the left
 * and the real file on the right, a deleted file against an empty side; one file to the plain diff
 * editor; files that are not text open nothing.
 */
const assert = require("node:assert/strict");
const { mkdir, writeFile } = require("node:fs/promises");
const path = require("node:path");
const vscode = require("vscode");
const { diffTabs, tandemExports, waitFor, workspaceRoot } = require("./tandem.cjs");

const CHECKPOINT_SCHEME = "tandem-checkpoint";

/** Multi-file diff tabs: their input is VS Code's TabInputTextMultiDiff (proposed API), a list of text diffs. */
function multiDiffTabs() {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => Array.isArray(tab.input?.textDiffs));
}

async function textOf(uri) {
  return (await vscode.workspace.openTextDocument(uri)).getText();
}

describe("Tandem's checkpoint diff in the editor", () => {
  /** @type {import("../../../../src/host/vscode/diff-view").VscodeDiffView} */
  let diffView;
  let folder;

  before(async () => {
    ({ diffView } = (await tandemExports()).host);
    folder = path.join(workspaceRoot(), "checkpoint-suite");
    await mkdir(folder, { recursive: true });
  });

  afterEach(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("opens the multi-file diff: the checkpoint's text read-only on the left, the real file on the right, a deleted file against an empty side", async () => {
    const edited = path.join(folder, "edited.txt");
    const gone = path.join(folder, "gone.txt");
    await writeFile(edited, "now\n");
    const title = "Tandem: changes since this checkpoint";
    await diffView.showChanges(title, [
      { path: "checkpoint-suite/edited.txt", status: "modified", before: "then\n", after: "now\n" },
      { path: "checkpoint-suite/gone.txt", status: "deleted", before: "was here\n" },
    ]);
    await waitFor("the multi-file diff tab", () => multiDiffTabs().length === 1);
    const [tab] = multiDiffTabs();
    assert.ok(tab.label.startsWith(title), `the tab is titled ${title} (VS Code adds the count): ${tab.label}`);
    const sides = new Map(tab.input.textDiffs.map((diff) => [diff.modified.fsPath, diff]));
    assert.deepEqual([...sides.keys()].sort(), [edited, gone].sort(), "one diff per file, paired by its path");

    const edit = sides.get(edited);
    assert.equal(edit.original.scheme, CHECKPOINT_SCHEME, "the left side is the checkpoint's");
    assert.equal(edit.modified.scheme, "file", "the right side is the real file");
    assert.equal(await textOf(edit.original), "then\n");

    const deletion = sides.get(gone);
    assert.equal(deletion.original.scheme, CHECKPOINT_SCHEME);
    assert.equal(deletion.modified.scheme, CHECKPOINT_SCHEME, "a deleted file has an empty read-only side, not a missing file");
    assert.equal(await textOf(deletion.original), "was here\n");
    assert.equal(await textOf(deletion.modified), "");
  });

  it("opens one file in the plain diff editor", async () => {
    const file = path.join(folder, "single.ts");
    await writeFile(file, "export const a = 2;\n");
    await diffView.showChanges("Tandem: what this task changed", [
      { path: "checkpoint-suite/single.ts", status: "modified", before: "export const a = 1;\n", after: "export const a = 2;\n" },
    ]);
    await waitFor("the diff tab", () => diffTabs().some((tab) => tab.input.modified.fsPath === file));
    const tab = diffTabs().find((candidate) => candidate.input.modified.fsPath === file);
    assert.equal(tab.input.original.scheme, CHECKPOINT_SCHEME);
    assert.equal(tab.input.modified.scheme, "file");
    const left = await vscode.workspace.openTextDocument(tab.input.original);
    assert.equal(left.getText(), "export const a = 1;\n");
    assert.equal(left.languageId, "typescript", "the path in the URI gives the language");
    assert.equal(multiDiffTabs().length, 0);
  });

  it("opens nothing for files that are not text", async () => {
    await diffView.showChanges("Tandem: changes since this checkpoint", [{ path: "checkpoint-suite/logo.png", status: "modified" }]);
    // Give the editor the time it takes to open a diff, which it must not.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(diffTabs().length + multiDiffTabs().length, 0, "no diff tab shows binary garbage");
  });
});
