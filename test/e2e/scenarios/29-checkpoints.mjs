/**
 * Checkpoints in the real VS Code: a task edits two files over two rounds, each round leaves a
 * checkpoint marker; Compare opens the multi-file diff of the first checkpoint against the
 * workspace; Restore files puts the files back as they were after round 1 (the chat stays);
 * Restore task only takes the chat and the model's conversation back to that point, and the task
 * goes on from there when the person resumes it.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { waitUntil } from "../lib/wait.mjs";
import { editorTabLabels, expectWebviewText, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "two rounds of edits leave checkpoints; Compare, Restore files, Restore task only";

const write = (file, content) => ({ text: `Editing ${file}.\n<write_to_file>\n<path>${file}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const done = (result) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function checkpoints(t) {
  const session = await t.startSession({
    files: { "a.txt": "zero\n", "b.txt": "bee\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: true },
    script: [write("a.txt", "one"), write("b.txt", "bee two"), done("Both files edited."), done("Went on from the checkpoint.")],
  });
  const { page } = session;
  const read = (file) => readFileSync(path.join(session.workspace, file), "utf8");
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-e2e-checkpoints");
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Edit a.txt, then b.txt.");
  await input.press("Enter");
  await expectWebviewText(webview, "Both files edited.", 60_000);
  assert.equal(read("a.txt"), "one\n");
  assert.equal(read("b.txt"), "bee two\n");

  const markers = webview.getByRole("group", { name: /^Checkpoint \d+$/ });
  await markers.nth(1).waitFor({ timeout: 20_000 });
  assert.equal(await markers.count(), 2, "one checkpoint per round that changed files");
  session.lap("two checkpoints shown");

  // Compare: the first checkpoint (after round 1) against the workspace now: b.txt differs.
  await markers.nth(0).getByRole("button", { name: "Compare" }).click();
  await waitUntil(async () => (await editorTabLabels(page)).some((label) => label.includes("b.txt")), "a diff tab of b.txt", 20_000);
  t.log(`tabs after Compare: ${(await editorTabLabels(page)).join(" | ")}`);

  // Restore files: the workspace goes back to round 1; the chat stays.
  await markers.nth(0).getByRole("button", { name: "Restore", exact: true }).click();
  await webview.getByRole("group", { name: "Restore choices" }).getByRole("button", { name: "Restore files", exact: true }).click();
  await webview.getByRole("group", { name: "Restore files?" }).getByRole("button", { name: "Restore files", exact: true }).click();
  await waitUntil(async () => read("b.txt") === "bee\n", "b.txt back to its content after round 1", 20_000);
  assert.equal(read("a.txt"), "one\n", "a.txt as round 1 left it");
  assert.equal(await markers.count(), 2, "restoring files keeps the chat");
  await expectWebviewText(webview, "Both files edited.", 5_000);
  session.lap("files restored");

  // Restore task only: the chat ends at the first checkpoint and asks to resume; the files stay.
  await markers.nth(0).getByRole("button", { name: "Restore", exact: true }).click();
  await webview.getByRole("group", { name: "Restore choices" }).getByRole("button", { name: "Restore task only", exact: true }).click();
  await webview.getByRole("group", { name: "Restore task only?" }).getByRole("button", { name: "Restore task only", exact: true }).click();
  const resume = webview.getByRole("button", { name: "Resume Task" });
  await resume.waitFor({ timeout: 20_000 });
  // The Resume question can show before the rewound chat has been posted (seen once in CI on a
  // loaded machine: an empty chat under the question); the chat must settle on the first round.
  await waitUntil(async () => (await markers.count()) === 1, "the second round's checkpoint gone with the chat after the first, the first one kept", 10_000);
  assert.equal(await webview.getByText("Both files edited.").count(), 0, "the result after the checkpoint is gone");
  assert.equal(read("a.txt"), "one\n", "restoring the task leaves the files");
  t.log(`screenshot: ${await saveScreenshot(page, "29-checkpoints")}`);
  await resume.click();
  await expectWebviewText(webview, "Went on from the checkpoint.", 30_000);
  const requests = await session.model.requests();
  const last = requests.at(-1).body.messages;
  const seen = JSON.stringify(last);
  assert.ok(seen.includes("TASK RESTORED"), "the model is told the task was restored");
  assert.ok(!seen.includes("bee two"), "the model no longer sees round 2");
}

