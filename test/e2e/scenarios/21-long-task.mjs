/**
 * A long task stays usable: 175 YOLO rounds of read_file replayed as fast as the scripted model
 * can answer make over 500 chat messages; then the list still scrolls to its first row and back,
 * and a reply's streamed answer shows within a second of the model sending it.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../lib/paths.mjs";
import { expectWebviewText, openTandemView, saveScreenshot } from "../lib/workbench.mjs";

export const description = "500+ messages: the list scrolls end to end and a new answer shows within a second";

const ROUNDS = 175;
const MIN_MESSAGES = 500;
const FOLLOW_UP_MARKER = "FOLLOWUP-7Q3 arrives";
const MAX_SHOW_MS = 1_000;

function script() {
  const turns = [];
  for (let i = 1; i <= ROUNDS; i++) turns.push({ text: `Round ${i}: reading again.\n<read_file>\n<path>tiny.txt</path>\n</read_file>`, chunkSize: 4_096 });
  turns.push({ text: "<attempt_completion>\n<result>LONG-RUN-DONE after many reads.</result>\n</attempt_completion>", chunkSize: 4_096 });
  // The answer to the person's reply: its first chunk carries the marker, the rest trickles on.
  turns.push({
    text: `${FOLLOW_UP_MARKER} first; the rest streams slowly.\n<attempt_completion>\n<result>Replied.</result>\n</attempt_completion>`,
    chunkSize: 20,
    delayMs: 60,
  });
  return turns;
}

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function longTask(t) {
  const session = await t.startSession({
    files: { "tiny.txt": "tiny\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: true },
    script: script(),
  });
  const { page } = session;
  const webview = await openTandemView(page);
  session.lap("Tandem view shown");

  const input = webview.getByRole("textbox").first();
  await input.fill("Read tiny.txt over and over");
  const started = Date.now();
  await input.press("Enter");
  await expectWebviewText(webview, "LONG-RUN-DONE", 90_000);
  session.lap(`${ROUNDS} rounds replayed`);
  t.log(`${ROUNDS} rounds took ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // The panel's count: the virtualized list numbers its rows; the last one is at the bottom.
  const rows = webview.locator(".chat-scroller [data-index]");
  const lastIndex = Number(await rows.last().getAttribute("data-index"));
  assert.ok(lastIndex + 1 >= MIN_MESSAGES, `the panel lists at least ${MIN_MESSAGES} messages (last row index ${lastIndex})`);
  const saved = savedMessages(session.dir.userData);
  assert.ok(saved.length >= MIN_MESSAGES, `the task's saved chat has at least ${MIN_MESSAGES} messages (${saved.length})`);
  assert.equal(lastIndex + 1, saved.length, "the panel lists as many messages as the task saved");
  t.log(`${saved.length} messages in the panel and on disk`);

  // Scroll to the top as a person does (the mouse wheel), until the task row is there.
  const list = webview.locator(".chat-scroller");
  const box = await list.boundingBox();
  assert.ok(box, "the message list has a size");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const taskRow = webview.locator('[data-row="say:task"]');
  for (let i = 0; i < 40 && !(await taskRow.isVisible()); i++) await page.mouse.wheel(0, -20_000);
  await taskRow.waitFor({ state: "visible", timeout: 5_000 });
  assert.match(await taskRow.innerText(), /Read tiny\.txt over and over/, "the first row is the task");
  assert.equal(await webview.locator('.chat-scroller [data-index="0"]').count(), 1, "row 0 is rendered");
  t.log(`screenshot (top): ${await saveScreenshot(page, "21-long-task-top")}`);

  // Back down with the panel's own button.
  await webview.getByRole("button", { name: "Scroll to the newest message" }).click({ timeout: 5_000 });
  await webview.locator(`.chat-scroller [data-index="${lastIndex}"]`).waitFor({ state: "visible", timeout: 5_000 });

  // A reply to the completion: time from the model receiving it (it answers at once) to the text on screen.
  const before = (await session.model.requests()).length;
  await input.fill("One more thing");
  await input.press("Enter");
  const arrivedAt = await waitForRequest(session.model, before + 1, 15_000);
  await webview.getByText(FOLLOW_UP_MARKER).first().waitFor({ state: "visible", timeout: 10_000 });
  const showMs = Date.now() - arrivedAt;
  t.log(`the follow-up's first chunk showed ${showMs} ms after its request arrived`);
  t.log(`screenshot: ${await saveScreenshot(page, "21-long-task")}`);
  assert.ok(showMs < MAX_SHOW_MS, `a new message shows within ${MAX_SHOW_MS} ms (took ${showMs} ms)`);
  const requests = await session.model.requests();
  assert.match(JSON.stringify(requests.at(-1)?.body), /One more thing/, "the reply reached the model");
  // Once the reply's answer is complete, no request row may still spin.
  await expectWebviewText(webview, "Replied.", 10_000);
  await webview.getByText("API request…").first().waitFor({ state: "detached", timeout: 5_000 }).catch(() => {
    throw new Error('a finished request still shows "API request…" five seconds after its answer completed');
  });
}

/** Polls the model server until it has `count` requests; returns when it saw the last one. */
async function waitForRequest(model, count, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await model.requests()).length >= count) return Date.now();
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  throw new Error(`the model did not receive request #${count} within ${timeoutMs} ms`);
}

/** The chat messages of the one task saved under the extension's global storage, read by Tandem's own loader. */
function savedMessages(userData) {
  const root = path.join(userData, "User/globalStorage/tandem.tandem");
  const ids = readdirSync(path.join(root, "tasks"));
  assert.equal(ids.length, 1, `one saved task under ${root}/tasks (found ${ids.join(", ") || "none"})`);
  const printed = execFileSync(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "test/support/print-saved-task.ts"), root, ids[0]], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
  return JSON.parse(printed).chat;
}
