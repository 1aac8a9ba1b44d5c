/**
 * Edit an earlier message and go on, in the installed extension (issue 30): a task writes a.txt,
 * the person replies "Also write b.txt" and the task writes it; Edit on that reply opens it in a
 * box that says what goes, the new text is sent with the files put back, and the task goes on from
 * it: b.txt is gone, c.txt written, the old reply no longer in the chat, and the money spent stays
 * in the header's total.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { waitUntil } from "../lib/wait.mjs";
import { expectWebviewText, openTandemView, saveScreenshot, scrollChatTo, setApiKey } from "../lib/workbench.mjs";

export const description = "Edit on a reply takes the task back to it, files too, and goes on from the new text; the money spent stays counted";

const write = (file, content) => ({ text: `Writing ${file}.\n<write_to_file>\n<path>${file}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const done = (result) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const usage = { inputTokens: 20_000, outputTokens: 500 };

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function editMessage(t) {
  const session = await t.startSession({
    files: { "notes.md": "# notes\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: true },
    script: [
      { ...write("a.txt", "one"), usage },
      { ...done("Wrote a.txt."), usage },
      { ...write("b.txt", "bee"), usage },
      { ...done("Wrote b.txt."), usage },
      { ...write("c.txt", "see"), usage },
      { ...done("Wrote c.txt."), usage },
    ],
  });
  const { page } = session;
  const file = (name) => path.join(session.workspace, name);
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-e2e-edit");
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Write a.txt");
  await input.press("Enter");
  await expectWebviewText(webview, "Wrote a.txt.", 60_000);
  await input.fill("Also write b.txt");
  await input.press("Enter");
  await expectWebviewText(webview, "Wrote b.txt.", 30_000);
  await waitUntil(async () => existsSync(file("b.txt")), "b.txt written", 10_000);
  const headerCost = () => webview.locator(".task-header .cost").innerText();
  const billed = Number((await headerCost()).replace("$", ""));
  session.lap("two results");

  const reply = webview.locator('[data-row="say:user_feedback"]', { hasText: "Also write b.txt" });
  await scrollChatTo(page, webview, reply);
  await reply.getByRole("button", { name: "Edit" }).click();
  const editor = reply.getByRole("group", { name: "Edit your message" });
  const box = editor.getByRole("textbox", { name: "Edited message" });
  assert.equal(await box.inputValue(), "Also write b.txt", "the box holds the message as sent");
  assert.match(await editor.innerText(), /Changes made to files since then will be lost\./, "the box says the files go back");
  assert.equal(await editor.getByRole("checkbox", { name: /Put the files back/ }).isChecked(), true, "files go back unless the person says not");
  await box.fill("Also write c.txt");
  t.log(`screenshot: ${await saveScreenshot(page, "47-edit-message-editing")}`);
  await box.press("Enter");

  await expectWebviewText(webview, "Wrote c.txt.", 30_000);
  await waitUntil(async () => existsSync(file("c.txt")), "c.txt written", 10_000);
  assert.equal(existsSync(file("b.txt")), false, "b.txt, written after the old reply, went with it");
  assert.equal(readFileSync(file("a.txt"), "utf8"), "one\n", "a.txt, written before it, stays");
  assert.equal(await webview.locator('[data-row="say:user_feedback"]', { hasText: "Also write b.txt" }).count(), 0, "the old reply is gone from the chat");
  const total = Number((await headerCost()).replace("$", ""));
  assert.ok(total > billed, `the requests before the edit stay in the total (${billed} -> ${total})`);
  t.log(`cost $${billed} before the edit, $${total} after; screenshot: ${await saveScreenshot(page, "47-edit-message-done")}`);
}
