/**
 * History you can live in (issue 30), through the installed .vsix:
 * - a task of another workspace, left as a folder without any index (the index is rebuilt from the
 *   task folders), shows under "All workspaces" only, with its totals from its chat;
 * - two tasks run here; History lists this workspace's, newest first; sorts by most expensive and
 *   oldest; a search finds a task by words only its conversation holds, the words marked;
 * - a star is kept by "Delete all", which asks first with a count, takes the keyboard to Cancel,
 *   and deletes every other task of the scope, files and all;
 * - Export saves the task as Markdown where the save dialog says;
 * - the History view, with a search's marks on screen, has no serious axe violation.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { formatViolations, webviewViolations } from "../lib/axe.mjs";
import { waitUntil } from "../lib/wait.mjs";
import { expectWebviewText, openTandemView, runCommand, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "History: per workspace with a switch for all, sorts, a search of the conversation, a star Delete all keeps, Export as Markdown, an index rebuilt from the task folders";

const done = (text, result) => ({ text: `${text}\n<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const SEEDED = "seeded-elsewhere-task";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function history(t) {
  let storage = "";
  const session = await t.startSession({
    tandem: { provider: "anthropic", modelId: "claude-sonnet-4-6", yolo: true },
    script: [
      { ...done("The zebra crossing keeps its name; the loader is renamed.", "Renamed the config loader."), usage: { inputTokens: 2_000, outputTokens: 100 } },
      { ...done("Notes written.", "Wrote the release notes."), usage: { inputTokens: 300_000, outputTokens: 4_000 } },
    ],
    // A task of another workspace as an older run left it: its folder, no index at all.
    beforeOpen: async (_page, dir) => {
      storage = path.join(dir.userData, "User", "globalStorage", "tandem.tandem");
      const folder = path.join(storage, "tasks", SEEDED);
      mkdirSync(folder, { recursive: true });
      const chat = [
        { ts: Date.UTC(2026, 0, 1), type: "say", say: "task", text: "Tidy the other project's docs" },
        { ts: Date.UTC(2026, 0, 1) + 1, type: "say", say: "api_req_started", apiRequest: { tokensIn: 1000, tokensOut: 10, cacheWrites: 0, cacheReads: 0, cost: 0.5, outcome: "completed" } },
      ];
      writeFileSync(path.join(folder, "ui_messages.jsonl"), `${JSON.stringify({ reset: chat })}\n`);
      writeFileSync(path.join(folder, "history_item.json"), JSON.stringify({ id: SEEDED, text: "Tidy the other project's docs", startedAt: Date.UTC(2026, 0, 1), status: "completed", workspace: "/elsewhere/project" }));
    },
  });
  const { page } = session;
  page.on("pageerror", (error) => t.log(`page error: ${error.stack ?? error.message}`));
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-ant-e2e-history");
  const input = webview.getByRole("textbox", { name: "Message" });
  const newTask = webview.locator("vscode-button", { hasText: /^\s*Start New Task\s*$/ });
  for (const [prompt, result] of [
    ["Rename the config loader", "Renamed the config loader."],
    ["Write the release notes", "Wrote the release notes."],
  ]) {
    await input.fill(prompt);
    await input.press("Enter");
    await expectWebviewText(webview, result, 60_000);
    // Closed, so no task is open: "Delete all" keeps only the star.
    await newTask.click();
    await webview.getByText("What should Tandem do?").waitFor({ timeout: 10_000 });
  }
  session.lap("two tasks ran");

  await runCommand(page, "Tandem: Show History");
  const status = webview.locator(".history-count");
  const texts = () => webview.locator(".history-entry .history-text").allInnerTexts();
  await waitUntil(async () => (await texts()).length === 2, "this workspace's two tasks listed", 10_000);
  assert.deepEqual(await texts(), ["Write the release notes", "Rename the config loader"], "this workspace's tasks, newest first");
  assert.equal(await status.innerText(), "2 tasks of this workspace. 1 task in other workspaces (All workspaces shows them).");

  // Sorts.
  const sortBy = async (label) => {
    const select = webview.locator('vscode-single-select[aria-label="Sort by"]');
    await select.click();
    await select.locator("li.option", { hasText: label }).first().click();
  };
  await sortBy("Oldest");
  await waitUntil(async () => (await texts())[0] === "Rename the config loader", "oldest first", 5_000);
  await sortBy("Most expensive");
  await waitUntil(async () => (await texts())[0] === "Write the release notes", "most expensive first", 5_000);
  session.lap("sorted");

  // A star, then a search of the conversation: the prompt does not say "zebra", the model did.
  const entry = (text) => webview.locator(".history-entry", { hasText: text });
  const star = entry("Rename the config loader").getByRole("button", { name: "Favourite" });
  await star.click();
  await waitUntil(async () => (await star.getAttribute("aria-pressed")) === "true", "the star pressed", 10_000);
  const search = webview.locator('vscode-textfield[aria-label="Search tasks and conversations"] input');
  await search.click();
  await page.keyboard.type("zebra");
  await waitUntil(async () => (await status.innerText()) === "1 task matches “zebra”.", "the conversation's match", 10_000);
  // The count can be said a frame before the list's rows are drawn.
  await waitUntil(async () => JSON.stringify(await texts()) === JSON.stringify(["Rename the config loader"]), "the matching task listed alone", 5_000);
  const snippet = await entry("Rename the config loader").locator(".history-snippet").innerText();
  assert.match(snippet, /^Tandem: .*zebra crossing/, "the words around the match, and who wrote them");
  assert.equal(await entry("Rename the config loader").locator("mark").first().innerText(), "zebra");
  t.log(`search: ${snippet}; screenshot: ${await saveScreenshot(page, "45-history-search")}`);
  const violations = await webviewViolations(page);
  assert.equal(violations.length, 0, `axe on History with a search shown:\n${formatViolations(violations)}`);
  await search.fill("");
  await waitUntil(async () => (await texts()).length === 2, "the list back after the search", 10_000);
  session.lap("starred and searched");

  // All workspaces: the task rebuilt from its folder is there, with the cost its chat says.
  await webview.locator('vscode-checkbox[data-setting="all-workspaces"]').click();
  await waitUntil(async () => (await texts()).length === 3, "every workspace's tasks", 10_000);
  assert.equal(await entry("Tidy the other project's docs").locator(".cost").innerText(), "$0.5000", "the seeded task's total, from its chat");

  // Export: the save dialog (code-server's own, a quick input) takes a path.
  const exported = path.join(session.workspace, "exported-task.md");
  await entry("Rename the config loader").locator("vscode-button", { hasText: /^\s*Export\s*$/ }).click();
  const dialog = page.locator(".quick-input-widget input.input");
  await dialog.waitFor({ state: "visible", timeout: 10_000 });
  // The dialog puts its default path in after it shows: a path typed before that is overwritten.
  await waitUntil(async () => (await dialog.inputValue()).endsWith(".md"), "the save dialog's default path", 10_000);
  await dialog.fill(exported);
  await dialog.press("Enter");
  await waitUntil(() => existsSync(exported), "the exported file written", 15_000);
  const markdown = readFileSync(exported, "utf8");
  assert.match(markdown, /^# Rename the config loader\n/);
  assert.match(markdown, /### Tandem\n\nThe zebra crossing keeps its name/);
  assert.match(markdown, /\*Request 1: 2,000 tokens in, 100 out, .* \(completed\)\*/);
  assert.match(markdown, /## Totals\n\n1 request: /);
  await expectWebviewText(webview, `Exported the task to ${exported}.`, 10_000);
  session.lap("exported");

  // Delete all: a count first, the keyboard on Cancel (Escape leaves), then all but the star go.
  const deleteAll = webview.locator("vscode-button", { hasText: /^\s*Delete all\s*$/ });
  await deleteAll.click();
  const confirm = webview.getByRole("group", { name: "Delete all?" });
  assert.match(await confirm.innerText(), /Delete 2 tasks in every workspace\? Favourites and the open task are kept\./);
  await waitUntil(async () => (await webview.locator(":focus").innerText().catch(() => "")).trim() === "Cancel", "the keyboard on Cancel", 5_000);
  await page.keyboard.press("Escape");
  await confirm.waitFor({ state: "detached", timeout: 5_000 });
  await deleteAll.click();
  await confirm.locator("vscode-button", { hasText: /^\s*Delete 2 tasks\s*$/ }).click();
  await waitUntil(async () => (await texts()).length === 1, "only the starred task left", 15_000);
  assert.deepEqual(await texts(), ["Rename the config loader"]);
  const index = JSON.parse(readFileSync(path.join(storage, "task_history.json"), "utf8"));
  assert.deepEqual(index.map((item) => [item.text, item.favorite === true]), [["Rename the config loader", true]], "the index keeps the star only");
  assert.equal(existsSync(path.join(storage, "tasks", SEEDED)), false, "a deleted task's folder is gone");
  t.log(`screenshot: ${await saveScreenshot(page, "45-history-after-delete-all")}`);
  session.lap("deleted all but the star");
}
