/**
 * The everyday loop with approvals on: a task typed in the panel, the answer streaming in, a new
 * file proposed in VS Code's diff editor, Approve clicked in the panel, the file on disk, and the
 * completion with its cost in the task header.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "a streamed answer proposes a file in the diff editor; Approve writes it";

const FILE = "greeting.txt";
// The model's usual layout, a newline after <content> and before </content>, frames the text.
const CONTENT = "Hello from Tandem!\nThis line was approved.";
const OPENING = "Let me look at what this workspace needs.";
const CLOSING = "I will now create the greeting file for you.";
// Slow enough (about six seconds of prose) that the panel is seen mid-stream even on a busy machine.
const PROSE = [
  OPENING,
  "It is empty apart from a readme, so a new file is the whole job.",
  "The greeting should be short, plain text, and say where it came from.",
  "A second line will show that multi-line content survives the diff view and the approval intact.",
  CLOSING,
].join(" ");
const RESULT = "Created greeting.txt with two lines.";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function approveWrite(t) {
  const session = await t.startSession({
    files: { "README.md": "# greetings\n" },
    tandem: { provider: "anthropic", modelId: "claude-sonnet-5-5", yolo: false },
    script: [
      {
        text: `${PROSE}\n<write_to_file>\n<path>${FILE}</path>\n<content>\n${CONTENT}\n</content>\n</write_to_file>`,
        chunkSize: 5,
        delayMs: 100,
        usage: { inputTokens: 2400, outputTokens: 120 },
      },
      { text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>`, usage: { inputTokens: 2600, outputTokens: 40 } },
    ],
  });
  const { page } = session;
  const target = path.join(session.workspace, FILE);
  const webview = await openTandemView(page);
  session.lap("view shown");
  await setApiKey(page, "sk-ant-e2e-approve");
  session.lap("key set");

  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Create a greeting file");
  await input.press("Enter");
  session.lap("task sent");

  // Mid-stream: at some moment the opening sentence is shown while the closing one has not arrived yet.
  const shown = await watchStream(webview, OPENING, CLOSING, 30_000);
  assert.ok(shown.partial, `the answer never showed part-way through; first seen as: ${oneLine(shown.first)}`);
  session.lap("partial answer shown");

  // The proposal: an Approve button in the panel and the diff editor holding the new text.
  const approve = webview.getByRole("button", { name: "Approve" });
  await approve.waitFor({ timeout: 20_000 });
  const tab = page.locator(".tabs-container .tab", { hasText: `${FILE}: New file` });
  await tab.first().waitFor({ timeout: 10_000 });
  const modified = page.locator(".monaco-diff-editor .editor.modified .view-lines");
  await waitForText(modified, "This line was approved.", 10_000);
  assert.equal(existsSync(target), false, "nothing is written to disk before the person approves");
  t.log(`diff tab: ${(await tab.first().innerText()).trim()}`);
  t.log(`screenshot: ${await saveScreenshot(page, "10-approve-write-diff")}`);

  await approve.click();
  await expectWebviewText(webview, RESULT, 20_000);
  session.lap("completion shown");
  // A new file ends with a line break, as it does when Tandem runs without an editor.
  assert.equal(readFileSync(target, "utf8"), `${CONTENT}\n`, "the approved file lands on disk with the proposed content");

  const cost = (await webview.locator(".task-header .cost").innerText()).trim();
  assert.match(cost, /^\$\d+\.\d+$/, "the task header shows the task's cost in dollars");
  assert.notEqual(Number(cost.slice(1)), 0, `two priced requests cost something; the header shows ${cost}`);
  assert.equal(await webview.getByText("Task Completed", { exact: true }).count(), 1, "the completion is shown once, not again for its ask");
  await webview.getByRole("button", { name: "Start New Task" }).waitFor({ timeout: 5_000 });
  assert.equal(await webview.getByRole("button", { name: "Cancel" }).count(), 0, "a completed task offers no Cancel");

  const requests = await session.model.requests();
  assert.equal(requests.length, 2, "one request for the proposal, one after the approval");
  assert.match(JSON.stringify(requests[1].body.messages), new RegExp(FILE.replace(".", "\\.")), "the second request reports the written file to the model");
  t.log(`cost: ${cost}; screenshot: ${await saveScreenshot(page, "10-approve-write-done")}`);
}

/**
 * Polls the panel until `last` shows, and says whether `first` was ever seen without it (the text
 * arriving in pieces) and how the panel looked when `first` first showed.
 * @param {import("playwright-core").FrameLocator} webview
 */
async function watchStream(webview, first, last, timeout) {
  const deadline = Date.now() + timeout;
  let firstSeen;
  let partial = false;
  while (Date.now() < deadline) {
    const text = await webview.locator("body").innerText().catch(() => "");
    if (text.includes(first)) {
      firstSeen ??= text;
      if (!text.includes(last)) partial = true;
    }
    if (text.includes(last)) return { partial, first: firstSeen ?? text };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the panel never showed "${last}" within ${timeout} ms`);
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
  throw new Error(`the diff editor never showed "${text}" within ${timeout} ms; it shows: ${oneLine(shown)}`);
}

function oneLine(text) {
  return text.replace(/\s+/g, " ").slice(0, 300);
}
