/**
 * Rejecting a proposed edit of an existing file, with feedback typed in the panel: the file keeps
 * its exact bytes, no editor is left dirty, and the feedback reaches the model in the next request.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "Reject with feedback leaves the file byte-identical and tells the model why";

const FILE = "settings.ini";
// CRLF line ends and no final newline: a revert that rewrites text instead of bytes would show.
const ORIGINAL = "[server]\r\nport = 8080\r\nhost = localhost";
const FEEDBACK = "Keep port 8080, the proxy depends on it";
const RESULT = "Left settings.ini as it was.";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function rejectWithFeedback(t) {
  const session = await t.startSession({
    files: { [FILE]: ORIGINAL },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: false },
    script: [
      { text: `I will move the server to port 9090.\n<write_to_file>\n<path>${FILE}</path>\n<content>\n[server]\nport = 9090\nhost = localhost\n</content>\n</write_to_file>` },
      { text: `Understood, I will not change the port.\n<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` },
    ],
  });
  const { page } = session;
  const target = path.join(session.workspace, FILE);
  const before = readFileSync(target);
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-e2e-reject");
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Move the server to port 9090");
  await input.press("Enter");

  const reject = webview.getByRole("button", { name: "Reject" });
  await reject.waitFor({ timeout: 30_000 });
  await page.locator(".tabs-container .tab", { hasText: `${FILE}: Original` }).first().waitFor({ timeout: 10_000 });
  await waitForText(page.locator(".monaco-diff-editor .editor.modified .view-lines"), "port = 9090", 10_000);
  session.lap("proposal shown");

  await input.fill(FEEDBACK);
  t.log(`screenshot: ${await saveScreenshot(page, "12-reject-with-feedback-before")}`);
  await reject.click();
  await expectWebviewText(webview, RESULT, 30_000);
  session.lap("completion shown");

  assert.ok(readFileSync(target).equals(before), `the rejected file keeps its exact bytes; it holds ${JSON.stringify(readFileSync(target, "utf8"))}`);
  assert.equal(await page.locator(".tabs-container .tab.dirty").count(), 0, "no editor is left with unsaved changes");
  assert.equal(await page.locator(".tabs-container .tab", { hasText: "Tandem's edit" }).count(), 0, "the diff editor is closed");
  assert.equal(await input.inputValue(), "", "the feedback left the input box with the answer");
  await expectWebviewText(webview, FEEDBACK, 5_000);

  const requests = await session.model.requests();
  assert.equal(requests.length, 2, "one request for the proposal, one after the rejection");
  const lastUserTurn = JSON.stringify(requests[1].body.messages.at(-1));
  assert.ok(lastUserTurn.includes(FEEDBACK), `the request after the rejection carries the feedback; its last turn: ${lastUserTurn.slice(0, 400)}`);
  t.log(`screenshot: ${await saveScreenshot(page, "12-reject-with-feedback")}`);
}

/**
 * Waits until a locator's text (Monaco renders spaces as no-break spaces) contains `text`.
 * @param {import("playwright-core").Locator} locator
 */
async function waitForText(locator, text, timeout) {
  const deadline = Date.now() + timeout;
  let shown = "";
  while (Date.now() < deadline) {
    shown = (await locator.first().innerText().catch(() => "")).replace(/\u00a0/g, " ");
    if (shown.includes(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the diff editor never showed "${text}" within ${timeout} ms; it shows: ${shown.replace(/\s+/g, " ").slice(0, 300)}`);
}
