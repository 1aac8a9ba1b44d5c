/**
 * YOLO switched on in the panel's auto-approve bar: a task that reads a file, edits it, runs a
 * command and completes, without a single click, and without an Approve or Run button ever showing.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "YOLO on from the panel: read, edit, command and completion with no click";

const FILE = "counter.txt";
const RESULT = "Bumped the counter and checked it.";
/** The buttons that ask for permission. (A running command may offer "Proceed While Running" and "Kill Command": not permissions.) */
const APPROVALS = /^(Approve|Run|Reject|Save)$/;

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function yolo(t) {
  const session = await t.startSession({
    files: { [FILE]: "count = 1\nname = demo\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: false },
    script: [
      { text: `First I read the file.\n<read_file>\n<path>${FILE}</path>\n</read_file>` },
      {
        text: `Now I bump the count.\n<replace_in_file>\n<path>${FILE}</path>\n<diff>\n------- SEARCH\ncount = 1\n=======\ncount = 2\n+++++++ REPLACE\n</diff>\n</replace_in_file>`,
      },
      { text: "Now I check it.\n<execute_command>\n<command>echo yolo-checked</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
      { text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` },
    ],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-e2e-yolo");

  // The bar is collapsed: open it and tick YOLO as a person would.
  await webview.locator("vscode-collapsible.auto-approve-panel").getByText("Auto-approve:", { exact: false }).first().click();
  await webview.locator('vscode-checkbox[data-setting="yolo"]').click();
  await expectWebviewText(webview, "YOLO is on", 10_000);
  const settings = JSON.parse(readFileSync(session.dir.userSettings, "utf8"));
  assert.equal(settings["tandem.yoloMode"], true, "the toggle is saved in the user settings");
  session.lap("YOLO on");

  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Bump the counter");
  await input.press("Enter");

  // Watch the panel for the whole run: no button that asks the person may ever appear.
  const seen = new Set();
  let polls = 0;
  const deadline = Date.now() + 60_000;
  while (!(await webview.getByText(RESULT).count())) {
    if (Date.now() > deadline) throw new Error(`the task did not complete within 60 s; the panel shows: ${await bodyText(webview)}`);
    for (const label of await webview.locator("vscode-button").allInnerTexts()) seen.add(label.trim());
    polls += 1;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  session.lap("completion shown");
  t.log(`buttons seen in ${polls} looks at the panel while the task ran: ${[...seen].join(", ") || "none"}`);
  assert.ok(polls >= 5, "the panel was watched while the task ran, not only after");
  assert.deepEqual([...seen].filter((label) => APPROVALS.test(label)), [], "YOLO asked the person for no approval");
  t.log(`screenshot: ${await saveScreenshot(page, "13-yolo")}`);

  assert.equal(readFileSync(path.join(session.workspace, FILE), "utf8"), "count = 2\nname = demo\n", "the edit was saved without a click");
  assert.equal(await page.locator(".tabs-container .tab.dirty").count(), 0, "no editor is left with unsaved changes");
  const requests = await session.model.requests();
  assert.equal(requests.length, 4, "read, edit, command and completion: one request each");
  const toolResults = requests.map((request) => JSON.stringify(request.body.messages.at(-1)));
  assert.ok(toolResults[1].includes("name = demo"), "the file's content went back to the model after read_file");
  assert.ok(toolResults[3].includes("yolo-checked"), `the command's output went back to the model; the last turn: ${toolResults[3].slice(0, 300)}`);
}

/** @param {import("playwright-core").FrameLocator} webview */
async function bodyText(webview) {
  return (await webview.locator("body").innerText().catch(() => "(unreadable)")).replace(/\s+/g, " ").slice(0, 300);
}
