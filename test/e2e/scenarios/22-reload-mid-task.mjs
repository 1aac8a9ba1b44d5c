/**
 * The window reloads while Tandem waits for an approval ("Developer: Reload Window"). The reload
 * ends the extension host and starts a new one; when the person opens Tandem again, the chat of
 * the interrupted task is back as it was, and the task goes on: Resume, the model asks again,
 * Approve, the file is written and the task completes. The proposal that was open when the
 * window reloaded leaves nothing behind: no file on disk, no editor holding its unsaved text.
 * The reopening is quick and honest: from the panel's first content the resume row shows within
 * 1.5 s (the figure is printed), and meanwhile the panel never shows the start screen that invites
 * a new task (it says "Restoring…").
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { EXTENSION_ID } from "../lib/paths.mjs";
import { editorTabLabels, expectWebviewText, openTandemView, runCommand, saveScreenshot, tandemTab, tandemWebview, WORKBENCH_TIMEOUT } from "../lib/workbench.mjs";

export const description = "A reload during an approval keeps the chat, and the task can go on to completion";

/** The bound on the time from the panel's first content to the resume row (measured about 1 s before the fix, under load). */
const RESUME_WITHIN_MS = 1_500;

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

  const timing = await timeReopening(page);
  t.log(`after the reload: first content ${timing.firstContentMs} ms after the frame appeared (showing ${JSON.stringify(timing.firstText)}), the resume row ${timing.resumeMs} ms after the first content${timing.sawRestoring ? ', "Restoring…" meanwhile' : ""}`);
  assert.equal(timing.invitedTyping, undefined, "while the task is reopened, the panel never shows the start screen that invites a new task");
  assert.ok(timing.resumeMs <= RESUME_WITHIN_MS, `the interrupted task's resume row shows within ${RESUME_WITHIN_MS} ms of the panel's first content (it took ${timing.resumeMs} ms)`);
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

/**
 * Times the reopening as a person sees it: from the moment Tandem's webview frame is attached,
 * when its page first shows any text, and how long after that the interrupted task's resume row
 * shows; and whether the start screen ("What should Tandem do?") showed meanwhile. Polls every
 * 25 ms (each look takes a few ms more).
 */
async function timeReopening(page) {
  const outer = page.locator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`);
  const deadline = Date.now() + WORKBENCH_TIMEOUT;
  const tab = tandemTab(page);
  await tab.waitFor({ timeout: WORKBENCH_TIMEOUT });
  // The workbench restores the side bar it showed; a click on the tab of a shown container would hide it.
  let clicked = Date.now();
  while ((await outer.count()) === 0) {
    if (Date.now() > deadline) throw new Error("Tandem's webview frame never appeared after the reload");
    if (Date.now() - clicked > 3_000 && (await tab.getAttribute("aria-selected")) !== "true") {
      await tab.click();
      clicked = Date.now();
    }
    await sleep(25);
  }
  const attached = Date.now();
  const body = tandemWebview(page).locator("body");
  let firstContent;
  let firstText = "";
  let invitedTyping;
  let sawRestoring = false;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`the resume row never showed after the reload (first content: ${JSON.stringify(firstText)})`);
    const text = ((await body.innerText({ timeout: 200 }).catch(() => "")) ?? "").replace(/\s+/g, " ").trim();
    if (text && firstContent === undefined) {
      firstContent = Date.now();
      firstText = text.slice(0, 160);
    }
    if (firstContent !== undefined && text.includes("Resume Task") && text.includes("BEFORE-RELOAD-7K")) break;
    if (text.includes("What should Tandem do?")) invitedTyping ??= text.slice(0, 160);
    if (text.includes("Restoring the interrupted task")) sawRestoring = true;
    await sleep(25);
  }
  return { firstContentMs: (firstContent ?? attached) - attached, resumeMs: Date.now() - (firstContent ?? attached), firstText, invitedTyping, sawRestoring };
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The text of every chat row rendered, in order. */
async function rowTexts(webview) {
  const texts = await webview.locator("[data-row]").allInnerTexts();
  return texts.map((text) => text.replace(/\s+/g, " ").trim()).filter(Boolean);
}

async function clickButton(webview, label, timeout = 10_000) {
  await webview.locator("vscode-button", { hasText: new RegExp(`^\\s*${label}\\s*$`) }).click({ timeout });
}
