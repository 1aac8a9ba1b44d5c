/* global describe, it, before, after */
/**
 * Tandem's diff view (src/host/vscode/diff-view.ts, diff-session.ts) in the real editor: the
 * diff tab it opens, the proposal in the document, save() and revert() on disk, and no dirty
 * document or stray diff tab left behind.
 */
const assert = require("node:assert/strict");
const { existsSync } = require("node:fs");
const { mkdir, readFile, writeFile } = require("node:fs/promises");
const path = require("node:path");
const vscode = require("vscode");
const { diffTabs, dirtyDocuments, tandemExports, workspaceRoot } = require("./tandem.cjs");

/** The diff tabs whose right side is `absPath`. */
function diffTabsOf(absPath) {
  return diffTabs().filter((tab) => tab.input.modified.fsPath === absPath);
}

function documentOf(absPath) {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === absPath);
  assert.ok(document, `${absPath} is open as a document`);
  return document;
}

function assertNothingLeftOpen(absPath) {
  assert.deepEqual(dirtyDocuments(), [], "no document has unsaved changes");
  assert.deepEqual(
    diffTabsOf(absPath).map((tab) => tab.label),
    [],
    `no diff tab of ${path.basename(absPath)} is left open`,
  );
}

describe("Tandem's diff view in the editor", () => {
  /** @type {import("../../../../src/host/bridge").DiffViewHost} */
  let diffView;
  let folder;

  before(async () => {
    ({ diffView } = (await tandemExports()).host);
    folder = path.join(workspaceRoot(), "diff-view-suite");
    await mkdir(folder, { recursive: true });
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("opens a diff tab, shows the proposal, and save() writes it and closes the tab", async () => {
    const file = path.join(folder, "notes.txt");
    const original = "first line\nsecond line\n";
    await writeFile(file, original);

    const session = await diffView.open(file, original);
    const [tab] = diffTabsOf(file);
    assert.ok(tab, `a diff tab of notes.txt is open; tabs: ${diffTabs().map((t) => t.label).join(", ") || "none"}`);
    assert.equal(tab.input.original.scheme, "tandem-original", "the left side is Tandem's read-only original");

    await session.update("first line\nSEC", false);
    const proposal = "first line\nSECOND LINE\nthird line\n";
    await session.update(proposal, true);
    assert.equal(documentOf(file).getText(), proposal, "the document shows the final proposal");
    assert.equal(await readFile(file, "utf8"), original, "nothing is written before save()");

    const saved = await session.save();
    assert.equal(saved.content, proposal);
    assert.equal(saved.personEdits, undefined, "the person changed nothing");
    assert.deepEqual(saved.newProblems, []);
    assert.equal(await readFile(file, "utf8"), proposal, "save() wrote the proposal to disk");
    assertNothingLeftOpen(file);
    await assert.rejects(session.update("late", true), /already closed/);
  });

  it("save() reports what the person typed into the diff view before approving", async () => {
    const file = path.join(folder, "edited-by-person.txt");
    await writeFile(file, "a\n");
    const session = await diffView.open(file, "a\n");
    await session.update("a\nb\n", true);

    const document = documentOf(file);
    const typing = new vscode.WorkspaceEdit();
    typing.insert(document.uri, document.positionAt(document.getText().length), "typed by a person\n");
    assert.equal(await vscode.workspace.applyEdit(typing), true);

    const saved = await session.save();
    assert.equal(saved.content, "a\nb\ntyped by a person\n");
    assert.equal(await readFile(file, "utf8"), saved.content);
    assert.match(saved.personEdits ?? "", /^\+typed by a person$/m, `personEdits: ${saved.personEdits}`);
    assertNothingLeftOpen(file);
  });

  it("revert() puts back the exact original bytes (BOM, CRLF, no final newline)", async () => {
    const file = path.join(folder, "windows.txt");
    const originalBytes = Buffer.from("\uFEFFone\r\ntwo\r\nthree", "utf8");
    await writeFile(file, originalBytes);

    const session = await diffView.open(file, "one\r\ntwo\r\nthree");
    assert.equal(diffTabsOf(file).length, 1, "a diff tab of windows.txt is open");
    await session.update("one\nTWO\nthree\nfour\n", true);
    assert.equal(documentOf(file).getText(), "one\r\nTWO\r\nthree\r\nfour\r\n", "the proposal is shown with the file's own line endings");

    await session.revert();
    const after = await readFile(file);
    assert.ok(after.equals(originalBytes), `the original bytes are back: ${JSON.stringify(after.toString("latin1"))}`);
    assertNothingLeftOpen(file);
    await session.revert(); // a second revert is harmless
    assert.ok((await readFile(file)).equals(originalBytes));
  });

  it("revert() of a new file deletes it and the folders made for it", async () => {
    const top = path.join(folder, "fresh");
    const file = path.join(top, "deeper", "created.txt");
    assert.equal(existsSync(top), false);

    const session = await diffView.open(file, undefined);
    assert.equal(diffTabsOf(file).length, 1, "a diff tab of the new file is open");
    await session.update("the answer is 42\n", true);
    assert.equal(documentOf(file).getText(), "the answer is 42\n");

    await session.revert();
    assert.equal(existsSync(file), false, "the new file is gone");
    assert.equal(existsSync(top), false, "the folders made for it are gone");
    assertNothingLeftOpen(file);
  });

  it("save() of a new file creates it with its folders", async () => {
    const file = path.join(folder, "made", "new.txt");
    const session = await diffView.open(file, undefined);
    await session.update("# New\n", true);
    const saved = await session.save();
    assert.equal(saved.content, "# New\n");
    assert.equal(await readFile(file, "utf8"), "# New\n");
    assertNothingLeftOpen(file);
  });
});
