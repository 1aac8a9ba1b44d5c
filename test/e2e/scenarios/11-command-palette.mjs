/**
 * "Tandem: New Task" from the command palette, with the Tandem view never opened before: the
 * command asks for the task in an input box, reveals the panel, and starts the task there.
 */
import assert from "node:assert/strict";
import { answerInputBox, expectWebviewText, runCommand, saveScreenshot, setApiKey, tandemTab, tandemWebview } from "../lib/workbench.mjs";

export const description = "Tandem: New Task from the palette starts a task the panel shows and the model receives";

const TASK = "List the TODO comments in palette-demo.js";
const ANSWER = "There is one TODO, on line 2.";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function commandPalette(t) {
  const session = await t.startSession({
    files: { "palette-demo.js": "const a = 1;\n// TODO: rename a\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: false },
    script: [{ text: `${ANSWER}\n<attempt_completion>\n<result>${ANSWER}</result>\n</attempt_completion>` }],
  });
  const { page } = session;
  await tandemTab(page).waitFor({ timeout: 60_000 });
  await setApiKey(page, "sk-e2e-palette");
  session.lap("key set");

  await runCommand(page, "Tandem: New Task");
  const box = page.locator(".quick-input-widget");
  await box.getByText("What should Tandem do?", { exact: false }).first().waitFor({ timeout: 10_000 });
  await answerInputBox(page, TASK);
  session.lap("task entered");

  const webview = tandemWebview(page);
  await expectWebviewText(webview, ANSWER, 30_000);
  session.lap("answer shown");
  assert.equal(await tandemTab(page).getAttribute("aria-selected"), "true", "the command revealed the Tandem view");
  const header = webview.getByRole("region", { name: "Task" });
  assert.equal((await header.locator(".task-text").innerText()).trim(), TASK, "the task header shows the task as typed");

  const requests = await session.model.requests();
  assert.ok(requests.length >= 1, "the model received a request");
  const [first] = requests;
  const userTurns = JSON.stringify(first.body.messages.filter((message) => message.role === "user"));
  assert.ok(userTurns.includes(TASK), `the first request carries the task text; its user turns are: ${userTurns.slice(0, 300)}`);
  assert.equal(first.headers.authorization, "Bearer sk-e2e-palette", "the key from the palette is the one used");
  t.log(`screenshot: ${await saveScreenshot(page, "11-command-palette")}`);
}
