/**
 * The small things of issue 26 around checkpoints, notices and History, in one VS Code:
 * - a task edits a.txt, then b.txt (Checkpoint 1, Checkpoint 2) and shows its result, which offers
 *   "See new changes"; a reply that changes nothing gets a result without it;
 * - Compare names the checkpoint in its diff tab ("Checkpoint 1 … ↔ now"); the notices of Compare
 *   and Restore do not pile up: one notice area, the newer replaces the older;
 * - "Restore task only" takes the chat back but not the money: the header's cost and History's
 *   stay what was billed, and so they are when the task is opened again from disk;
 * - a new task clears the notice; a task whose request failed, closed while it asks whether to
 *   retry, is "Failed" in History, not "Cancelled";
 * - the start screen lists this workspace's recent tasks; one opens with a click; View all opens
 *   History.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { editorTabLabels, expectWebviewText, openTandemView, saveScreenshot, scrollChatTo, setApiKey } from "../lib/workbench.mjs";

export const description = "one notice at a time, Compare tabs name their checkpoint, See new changes only after changes, a restore keeps the cost, failed tasks say Failed, the start screen lists recent tasks";

const write = (file, content) => ({ text: `Editing ${file}.\n<write_to_file>\n<path>${file}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const done = (result) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const usage = { inputTokens: 20_000, outputTokens: 500 };

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function noticesAndHistory(t) {
  const session = await t.startSession({
    files: { "a.txt": "zero\n", "b.txt": "bee\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: true, extra: { requestRetries: 0 } },
    script: [
      { ...write("a.txt", "one"), usage },
      { ...write("b.txt", "bee two"), usage },
      { ...done("Both files edited."), usage },
      { ...done("Nothing else to change."), usage },
      { ...done("Went on from checkpoint 1."), usage },
      // The second task: its request fails, and no retry is set.
      { kind: "fault", fault: "bad_request" },
    ],
  });
  const { page } = session;
  const read = (file) => readFileSync(path.join(session.workspace, file), "utf8");
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-e2e-notices");
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Edit a.txt, then b.txt.");
  await input.press("Enter");
  await expectWebviewText(webview, "Both files edited.", 60_000);

  // See new changes: on a result after rounds that changed files, not on one after a reply that changed nothing.
  const results = webview.locator('[data-row="say:completion_result"]');
  const seeChanges = webview.getByRole("button", { name: "See new changes" });
  await seeChanges.first().waitFor({ timeout: 10_000 });
  await input.fill("Anything else?");
  await input.press("Enter");
  await expectWebviewText(webview, "Nothing else to change.", 30_000);
  assert.equal(await results.count(), 2, "two results");
  assert.equal(await results.nth(0).getByRole("button", { name: "See new changes" }).count(), 1, "the first result offers the task's changes");
  assert.equal(await results.nth(1).getByRole("button", { name: "See new changes" }).count(), 0, "a result after nothing changed offers nothing new to see");
  session.lap("results shown");

  // Compare: the tab names the checkpoint; the notices replace each other.
  const marker = (n) => webview.getByRole("group", { name: `Checkpoint ${n}`, exact: true });
  const notices = webview.locator(".notice");
  await marker(2).getByRole("button", { name: "Compare" }).click();
  await webview.getByText("No file differs from that checkpoint", { exact: false }).waitFor({ timeout: 10_000 });
  await scrollChatTo(page, webview, marker(1));
  await marker(1).getByRole("button", { name: "Compare" }).click();
  // The file's own tab (opened by the write) is there too: the diff tab is the one that names a comparison.
  const diffTab = async () => (await editorTabLabels(page)).find((label) => label.includes("b.txt") && label.includes("↔"));
  try {
    await waitFor(async () => (await diffTab()) !== undefined, "a diff tab of b.txt", 20_000);
  } catch (error) {
    throw new Error(`${error.message}; tabs: ${(await editorTabLabels(page)).join(" | ")}`);
  }
  const tab = (await diffTab()) ?? "";
  t.log(`Compare's tab: ${tab}`);
  assert.match(tab, /Checkpoint 1 \(\d\d:\d\d:\d\d\) ↔ now/, "the diff tab says which checkpoint it compares with now");
  t.log(`screenshot: ${await saveScreenshot(page, "40-notices-and-history-compare")}`);

  await scrollChatTo(page, webview, marker(1));
  await marker(1).getByRole("button", { name: "Restore", exact: true }).click();
  await webview.getByRole("group", { name: "Restore choices" }).getByRole("button", { name: "Restore files", exact: true }).click();
  await webview.getByRole("group", { name: "Restore files?" }).getByRole("button", { name: "Restore files", exact: true }).click();
  await webview.getByText("Restored 1 file", { exact: false }).waitFor({ timeout: 20_000 });
  assert.equal(read("b.txt"), "bee\n", "b.txt as checkpoint 1 left it");
  assert.deepEqual(await notices.allInnerTexts(), ["Restored 1 file and deleted 0 files added since."], "one notice: the restore's replaced the compare's");
  t.log(`screenshot: ${await saveScreenshot(page, "40-notices-and-history-one-notice")}`);
  session.lap("compare and restore notices");

  // Restore task only: the chat goes back to checkpoint 1, the cost stays what was billed.
  const headerCost = () => webview.locator(".task-header .cost").innerText();
  const billed = await headerCost();
  assert.match(billed, /^\$\d+\.\d+$/);
  assert.notEqual(billed, "$0.0000", "the requests cost something");
  await scrollChatTo(page, webview, marker(1));
  await marker(1).getByRole("button", { name: "Restore", exact: true }).click();
  await webview.getByRole("group", { name: "Restore choices" }).getByRole("button", { name: "Restore task only", exact: true }).click();
  await webview.getByRole("group", { name: "Restore task only?" }).getByRole("button", { name: "Restore task only", exact: true }).click();
  const resume = webview.getByRole("button", { name: "Resume Task" });
  await resume.waitFor({ timeout: 20_000 });
  await waitFor(async () => (await results.count()) === 0, "the results after checkpoint 1 gone with the chat", 10_000);
  await webview.getByText("The task was taken back to this checkpoint").waitFor({ timeout: 10_000 });
  assert.equal(await headerCost(), billed, "restoring the task takes no money spent off its total");
  t.log(`cost ${billed} before and after the restore; screenshot: ${await saveScreenshot(page, "40-notices-and-history-restored")}`);
  await resume.click();
  await expectWebviewText(webview, "Went on from checkpoint 1.", 30_000);
  const total = await headerCost();
  assert.ok(dollars(total) > dollars(billed), `the request after the restore adds to the total (${billed} -> ${total})`);
  session.lap("task restored, cost kept");

  // A notice, then a new task clears it.
  await scrollChatTo(page, webview, marker(1));
  await marker(1).getByRole("button", { name: "Compare" }).click();
  await webview.getByText("No file differs from that checkpoint", { exact: false }).waitFor({ timeout: 10_000 });
  await webview.getByRole("button", { name: "Start New Task" }).click();
  await webview.getByText("What should Tandem do?").waitFor({ timeout: 10_000 });
  assert.equal(await notices.count(), 0, "leaving the task cleared its notice");

  // The second task fails; closed while it asks "Retry?", History calls it Failed (it said Cancelled).
  await input.fill("Fail, please.");
  await input.press("Enter");
  await webview.getByRole("button", { name: "Retry" }).waitFor({ timeout: 30_000 });
  await webview.getByRole("button", { name: "Close task" }).click();
  const recent = webview.getByRole("navigation", { name: "Recent tasks" });
  await recent.waitFor({ timeout: 10_000 });
  const recentTexts = (await recent.locator(".recent-task").allInnerTexts()).map((text) => text.replace(/\s+/g, " "));
  t.log(`recent tasks: ${JSON.stringify(recentTexts)}`);
  assert.equal(recentTexts.length, 2, "the start screen lists this workspace's tasks");
  assert.match(recentTexts[0] ?? "", /^Fail, please\..*Failed/, "newest first, the failed task labelled Failed");
  assert.match(recentTexts[1] ?? "", new RegExp(`^Edit a\\.txt, then b\\.txt\\..*${escape(total)}`), "the edit task with its whole cost");
  t.log(`screenshot: ${await saveScreenshot(page, "40-notices-and-history-welcome")}`);

  await recent.getByRole("button", { name: "View all" }).click();
  await webview.getByRole("heading", { name: "History" }).waitFor({ timeout: 10_000 });
  const entries = webview.locator(".history-entry");
  const failed = entries.filter({ hasText: "Fail, please." });
  assert.equal(await failed.locator(".history-status").innerText(), "Failed", "a task that failed is not Cancelled");
  const edited = entries.filter({ hasText: "Edit a.txt, then b.txt." });
  assert.equal(await edited.locator(".cost").innerText(), total, "History keeps every request billed, restored or not");
  await webview.getByRole("button", { name: "Done" }).click();

  // Opened again from the start screen, the chat comes from disk: the cost is still whole.
  await recent.locator(".recent-task", { hasText: "Edit a.txt, then b.txt." }).click();
  await expectWebviewText(webview, "Went on from checkpoint 1.", 20_000);
  assert.equal(await headerCost(), total, "the reopened task's total keeps the restored requests");
  session.lap("history and start screen");
}

function dollars(text) {
  return Number(text.replace("$", ""));
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function waitFor(condition, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
