/**
 * What the panel says must be true, in a real VS Code, as a new user meets it:
 * - a task typed before any key is set waits, and starts once "Tandem: Set API Key" saved one; the
 *   "No API key" banner goes away then;
 * - an edit says "wants to write" while it streams and waits, and "wrote" only after Approve; a
 *   command says "ran" once run;
 * - the result's suggested command is offered with Run, runs only when pressed, its output shown;
 * - the History entry shows the task as completed with the header's very totals, and opening it
 *   shows it completed, not cancelled or interrupted;
 * - a refused key: the request row stops spinning, names the status once and offers the settings.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { waitUntil } from "../lib/wait.mjs";
import path from "node:path";
import { expectWebviewText, openTandemView, runCommand, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "the panel's words match what happened: held task, edit and command rows, completion command, History, refused key";

const FILE = "greeting.txt";
const CONTENT = "Hello from the panel truths!";
// Small slow chunks, so the edit is seen while it streams.
const WRITE = `I will write the greeting.\n<write_to_file>\n<path>${FILE}</path>\n<content>\n${CONTENT}\n${"More lines of the greeting.\n".repeat(12)}</content>\n</write_to_file>`;
const RUN = "<execute_command>\n<command>echo ran-by-tandem</command>\n<requires_approval>true</requires_approval>\n</execute_command>";
const DONE = `<attempt_completion>\n<result>Wrote ${FILE}.</result>\n<command>cat ${FILE}</command>\n</attempt_completion>`;

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function panelTruths(t) {
  const session = await t.startSession({
    files: { "README.md": "# truths\n" },
    tandem: { provider: "anthropic", modelId: "claude-sonnet-5-5", yolo: false },
    script: [
      { text: WRITE, chunkSize: 6, delayMs: 40, usage: { inputTokens: 2400, outputTokens: 120, cacheWriteTokens: 1800 } },
      { text: RUN, usage: { inputTokens: 300, outputTokens: 30, cacheReadTokens: 1800 } },
      { text: DONE, usage: { inputTokens: 400, outputTokens: 40, cacheReadTokens: 1800 } },
      { kind: "fault", fault: "auth" },
    ],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  const banner = webview.getByText(/No API key is set for Anthropic/);
  await banner.waitFor({ timeout: 10_000 });
  session.lap("banner shown");

  // 1. The task typed before any key waits, and starts once the key is saved.
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Write the greeting file");
  await input.press("Enter");
  // The settings open to take the key; the task waits in the chat behind them.
  await webview.getByRole("heading", { name: "Settings" }).waitFor({ timeout: 10_000 });
  await webview.getByText("Waiting for an API key", { exact: false }).waitFor({ state: "attached", timeout: 10_000 });
  assert.equal((await session.model.requests()).length, 0, "nothing reaches the model without a key");
  await setApiKey(page, "sk-ant-e2e-truths");
  await banner.waitFor({ state: "detached", timeout: 10_000 });
  // Back in the chat, the task is on its way.
  await expectWebviewText(webview, "Write the greeting file", 10_000);
  session.lap("key saved");

  // 2. The edit wants to write while it streams and waits; it wrote only after Approve.
  const toolTitle = webview.locator('[data-row^="say:tool"], [data-row="ask:tool"]').locator(".row-title").first();
  const approve = webview.locator("vscode-button", { hasText: /^\s*Approve\s*$/ });
  const seen = new Set();
  const deadline = Date.now() + 30_000;
  while (!(await approve.isVisible().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`no Approve within 30 s; tool titles seen: ${[...seen].join(" | ")}`);
    const title = await toolTitle.innerText({ timeout: 200 }).catch(() => "");
    if (title) seen.add(title.trim());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  seen.add((await toolTitle.innerText()).trim());
  t.log(`edit titles before Approve: ${[...seen].join(" | ")}`);
  assert.deepEqual([...seen], ["Tandem wants to write this file"], "streaming and waiting, the edit only wants to write");
  await approve.click();
  await webview.getByText("Tandem wrote this file", { exact: true }).waitFor({ timeout: 10_000 });
  // Once beside the integration suite the row said "wrote" a moment before the file could be read
  // here (ENOENT): give the disk a few seconds (open question, see issue 26's note of session 15).
  const written = path.join(session.workspace, FILE);
  await waitUntil(() => existsSync(written), "the approved file on disk", 5_000);
  assert.ok(readFileSync(written, "utf8").startsWith(CONTENT), "the approved file is on disk");
  session.lap("edit approved");

  // 3. A command that ran no longer says it wants to run.
  await webview.getByText("Tandem wants to run this command", { exact: true }).waitFor({ timeout: 15_000 });
  await webview.locator("vscode-button", { hasText: /^\s*Run\s*$/ }).click({ timeout: 5_000 });
  await webview.getByText("Tandem ran this command", { exact: true }).waitFor({ timeout: 10_000 });
  assert.equal(await webview.getByText("Tandem wants to run this command", { exact: true }).count(), 0, "the command that ran no longer wants to run");
  session.lap("command ran");

  // 4. The result's command is offered with Run, and runs only when pressed.
  await webview.getByText("Run this command to see the result?", { exact: true }).waitFor({ timeout: 15_000 });
  const requestsBeforeRun = (await session.model.requests()).length;
  await webview.locator("vscode-button", { hasText: /^\s*Run\s*$/ }).click({ timeout: 5_000 });
  await webview.getByText("Ran the command to see the result", { exact: true }).waitFor({ timeout: 10_000 });
  await expectWebviewText(webview, "More lines of the greeting.", 10_000);
  await webview.locator("vscode-button", { hasText: /^\s*Start New Task\s*$/ }).waitFor({ timeout: 10_000 });
  assert.equal((await session.model.requests()).length, requestsBeforeRun, "running the result's command asks the model nothing");
  const headerTotals = (await webview.locator(".task-header .task-stats").innerText()).replace(/\s+/g, " ").trim();
  t.log(`header totals: ${headerTotals}; screenshot: ${await saveScreenshot(page, "26-panel-truths-completed")}`);
  session.lap("completion command ran");

  // 5. History: completed, with the header's totals; opening it shows it completed.
  await runCommand(page, "Tandem: Show History");
  const entry = webview.locator(".history-entry", { hasText: "Write the greeting file" });
  await entry.waitFor({ timeout: 10_000 });
  await entry.getByText("Completed", { exact: true }).waitFor({ timeout: 10_000 });
  const entryTotals = (await entry.locator(".task-stats").innerText()).replace(/\s+/g, " ").trim();
  assert.equal(entryTotals, headerTotals, "the History entry shows the totals the task header showed");
  await entry.locator("vscode-button", { hasText: /^\s*Open\s*$/ }).click();
  await expectWebviewText(webview, `Wrote ${FILE}.`, 10_000);
  await webview.locator("vscode-button", { hasText: /^\s*Start New Task\s*$/ }).waitFor({ timeout: 10_000 });
  const reopened = await webview.locator("body").innerText();
  assert.doesNotMatch(reopened, /Task cancelled|was interrupted|Resume Task/, "a finished task opens as completed");
  assert.equal(await webview.getByText("Task Completed", { exact: true }).count(), 1, "its result is shown once");
  t.log(`screenshot (reopened): ${await saveScreenshot(page, "26-panel-truths-reopened")}`);
  session.lap("reopened from History");

  // 6. A refused key: the row stops spinning, says the status once, offers the settings.
  await webview.locator("vscode-button", { hasText: /^\s*Start New Task\s*$/ }).click();
  await input.fill("A second task");
  await input.press("Enter");
  const failedRow = webview.locator('[data-row="say:api_req_started"]').filter({ hasText: "API request failed" });
  await failedRow.waitFor({ timeout: 15_000 });
  assert.equal(await failedRow.locator(".codicon-modifier-spin").count(), 0, "the failed request's row does not spin");
  const question = (await webview.locator('[data-row="ask:api_req_failed"]').innerText()).replace(/\s+/g, " ");
  assert.equal(question.split("401").length - 1, 1, `the status is named once: ${question}`);
  t.log(`screenshot (refused key): ${await saveScreenshot(page, "26-panel-truths-refused-key")}`);
  await failedRow.getByRole("button", { name: "Open settings" }).click();
  await webview.getByRole("heading", { name: "Settings" }).waitFor({ timeout: 5_000 });
  assert.equal(existsSync(path.join(session.workspace, FILE)), true);
}
