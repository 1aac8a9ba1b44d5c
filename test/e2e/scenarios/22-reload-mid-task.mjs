/**
 * The window reloads while Tandem waits for an approval ("Developer: Reload Window"). The reload
 * ends the extension host and starts a new one; when the person opens Tandem again, the chat of
 * the interrupted task is back as it was, and the task goes on: Resume, the model asks again,
 * Approve, the file is written and the task completes. The proposal that was open when the
 * window reloaded leaves nothing behind: no file on disk, no editor holding its unsaved text.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { editorTabLabels, expectWebviewText, openTandemView, runCommand, saveScreenshot, WORKBENCH_TIMEOUT } from "../lib/workbench.mjs";

export const description = "A reload during an approval keeps the chat, and the task can go on to completion";

const WRITE_NOTES = "<write_to_file>\n<path>notes.txt</path>\n<content>\nwritten after the reload\n</content>\n</write_to_file>";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function reloadMidTask(t) {
  const session = await t.startSession({
    files: { "README.md": "# reload me\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: false },
    script: [
      { text: `First I will write the notes file (BEFORE-RELOAD-7K).\n${WRITE_NOTES}` },
      // After the resume the model sees its write was never answered and asks again.
      { text: `Writing the notes file again (AFTER-RELOAD-2M).\n${WRITE_NOTES}` },
      { text: "<attempt_completion>\n<result>Notes written after the reload.</result>\n</attempt_completion>" },
    ],
  });
  const { page } = session;
  let webview = await openTandemView(page);
  const input = webview.getByRole("textbox").first();
  await input.fill("Write the notes file");
  await input.press("Enter");
  await webview.locator("vscode-button", { hasText: /^\s*Approve\s*$/ }).waitFor({ timeout: 20_000 });
  const before = await rowTexts(webview);
  assert.ok(before.some((text) => text.includes("BEFORE-RELOAD-7K")), "the model's text is shown before the reload");
  t.log(`rows before the reload: ${before.length}`);
  t.log(`screenshot (before): ${await saveScreenshot(page, "22-reload-mid-task-before")}`);
  session.lap("approval open");

  await runCommand(page, "Developer: Reload Window");
  // The old workbench goes away first; then the new one loads.
  await page.waitForEvent("load", { timeout: WORKBENCH_TIMEOUT });
  await page.locator(".monaco-workbench").waitFor({ timeout: WORKBENCH_TIMEOUT });
  session.lap("reloaded");

  webview = await openTandemView(page);
  await expectWebviewText(webview, "BEFORE-RELOAD-7K", 20_000);
  const after = await rowTexts(webview);
  const missing = before.filter((text) => !after.includes(text));
  assert.deepEqual(missing, [], `every row shown before the reload is shown after it (after: ${JSON.stringify(after)})`);
  t.log(`screenshot (after): ${await saveScreenshot(page, "22-reload-mid-task-after")}`);
  session.lap("chat restored");

  const notes = path.join(session.workspace, "notes.txt");
  assert.equal(existsSync(notes), false, "nothing was written before the approval");
  const tabs = await editorTabLabels(page);
  assert.deepEqual(tabs.filter((label) => label.includes("notes.txt")), [], `no editor shows the unapproved proposal (tabs: ${JSON.stringify(tabs)})`);
  await clickButton(webview, "Resume Task");
  await clickButton(webview, "Approve", 20_000);
  await expectWebviewText(webview, "Notes written after the reload.", 20_000);
  session.lap("completed");
  assert.equal(readFileSync(notes, "utf8"), "written after the reload\n", "the approved write reached the disk");
  const requests = await session.model.requests();
  assert.equal(requests.length, 3, "one request before the reload, two after it");
  assert.match(JSON.stringify(requests[1].body), /BEFORE-RELOAD-7K/, "the resumed request carries the conversation from before the reload");
  t.log(`screenshot: ${await saveScreenshot(page, "22-reload-mid-task")}`);
}

/** The text of every chat row rendered, in order. */
async function rowTexts(webview) {
  const texts = await webview.locator("[data-row]").allInnerTexts();
  return texts.map((text) => text.replace(/\s+/g, " ").trim()).filter(Boolean);
}

async function clickButton(webview, label, timeout = 10_000) {
  await webview.locator("vscode-button", { hasText: new RegExp(`^\\s*${label}\\s*$`) }).click({ timeout });
}
