/**
 * The main flow by keyboard alone, and what a screen reader is told. The task is typed and sent
 * with Enter; Shift+Tab reaches Approve, Run and Start New Task, Enter presses them, and the focus
 * is back in the message box after each; the / and @ menus close (Escape, or a pick with Enter)
 * with the focus still there; Ctrl+Shift+A switches Plan/Act with the focus in the panel, and
 * leaves the mode alone in an editor. The chat list is a named log, aria-busy while the answer
 * streams; the live regions say the model's finished text (once, not its chunks), each question
 * ("Tandem asks to write this file: notes.md", "Tandem asks to run a command: …") and "Task
 * Completed".
 */
import assert from "node:assert/strict";
import { tandemWebviewFrame } from "../lib/axe.mjs";
import { waitUntil } from "../lib/wait.mjs";
import { expectWebviewText, openFileInEditor, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "keyboard only: send, approve, run, start a new task, the menus and Plan/Act, with the focus back in the input; the live regions and aria-busy say what happens";

const INTRO = "I will write the notes file now, then check it with a command, and report back.";
const WRITE = `${INTRO}\n<write_to_file>\n<path>notes.md</path>\n<content>keyboard notes\n</content>\n</write_to_file>`;
const COMMAND = "<execute_command>\n<command>echo keyboard-check</command>\n<requires_approval>true</requires_approval>\n</execute_command>";
const RESULT = "The notes are written and checked.";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function keyboardLive(t) {
  const session = await t.startSession({
    files: { "README.md": "# keyboard\n", "src/app.ts": "export const app = 1;\n" },
    tandem: { provider: "anthropic", modelId: "claude-sonnet-4-6", yolo: false },
    script: [
      // Slow enough that the log is seen busy while it streams.
      { text: WRITE, chunkSize: 8, delayMs: 60 },
      { text: COMMAND },
      { text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` },
    ],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-ant-e2e-keyboard");
  const frame = await tandemWebviewFrame(page);
  const input = webview.getByRole("textbox", { name: "Message" });
  const log = webview.getByRole("log", { name: "Messages" });
  await log.waitFor({ timeout: 10_000 });

  // Every text the live regions take, and every aria-busy value the log takes, in order.
  await frame.evaluate(() => {
    /* global window, document, MutationObserver */
    const seen = { polite: /** @type {string[]} */ ([]), assertive: /** @type {string[]} */ ([]), busy: /** @type {string[]} */ ([]) };
    /** @type {any} */ (window).__tandemLive = seen;
    const record = (list, text) => {
      const value = (text ?? "").trim();
      if (value && list.at(-1) !== value) list.push(value);
    };
    const observe = () => {
      const polite = document.querySelector('[role="status"][aria-live="polite"]');
      const assertive = document.querySelector('[role="alert"][aria-live="assertive"]');
      const list = document.querySelector('[role="log"]');
      if (polite) new MutationObserver(() => record(seen.polite, polite.textContent)).observe(polite, { childList: true, characterData: true, subtree: true });
      if (assertive) new MutationObserver(() => record(seen.assertive, assertive.textContent)).observe(assertive, { childList: true, characterData: true, subtree: true });
      if (list) new MutationObserver(() => record(seen.busy, list.getAttribute("aria-busy"))).observe(list, { attributes: true, attributeFilter: ["aria-busy"] });
    };
    observe();
  });
  const live = () => frame.evaluate(() => /** @type {any} */ (window).__tandemLive);
  const focused = () => frame.evaluate(() => {
    const element = document.activeElement;
    return element ? `${element.tagName.toLowerCase()}[${element.getAttribute("aria-label") ?? element.textContent?.trim() ?? ""}]` : "nothing";
  });
  const expectFocusInInput = async (after) => {
    const deadline = Date.now() + 5_000;
    let where = "";
    while (Date.now() < deadline && (where = await focused()) !== "textarea[Message]") await page.waitForTimeout(100);
    assert.equal(where, "textarea[Message]", `after ${after} the focus is back in the message box`);
  };
  /** Shift+Tab from the input until the button `label` has the focus, then Enter. */
  const pressByKeyboard = async (label) => {
    await webview.locator("vscode-button", { hasText: new RegExp(`^\\s*${label}\\s*$`) }).waitFor({ timeout: 30_000 });
    const path = [];
    for (let i = 0; i < 8 && !path.at(-1)?.includes(`[${label}]`); i++) {
      await page.keyboard.press("Shift+Tab");
      path.push(await focused());
    }
    assert.ok(path.at(-1)?.includes(`[${label}]`), `Shift+Tab from the input reaches ${label}; it went: ${path.join(" → ")}`);
    await page.keyboard.press("Enter");
    await expectFocusInInput(label);
    assert.equal(await input.inputValue(), "", `the Enter that pressed ${label} left no new line in the message box`);
  };

  // Keyboard from here on: the input takes the focus once, as "Tandem: Focus Chat Input" gives it.
  await input.focus();
  await page.keyboard.type("Write notes.md", { delay: 10 });
  await page.keyboard.press("Enter");
  await expectWebviewText(webview, "keyboard notes", 30_000);
  await pressByKeyboard("Approve");
  session.lap("approved by keyboard");
  await pressByKeyboard("Run");
  session.lap("ran by keyboard");
  await expectWebviewText(webview, RESULT, 30_000);
  await saveScreenshot(page, "37-keyboard-completed");

  // The menus: Escape closes the / menu, Enter picks in the @ menu; the focus stays in the input.
  await page.keyboard.type("/", { delay: 20 });
  const slash = webview.getByRole("listbox", { name: "Slash commands" });
  await slash.waitFor({ timeout: 15_000 });
  await page.keyboard.press("Escape");
  await slash.waitFor({ state: "hidden", timeout: 5_000 });
  await expectFocusInInput("Escape closed the / menu");
  await page.keyboard.press("Backspace");
  await page.keyboard.type("see @src", { delay: 20 });
  const mentions = webview.getByRole("listbox", { name: "Mentions" });
  await mentions.getByRole("option").first().waitFor({ timeout: 15_000 });
  await page.keyboard.press("Enter");
  await mentions.waitFor({ state: "hidden", timeout: 5_000 });
  await expectFocusInInput("a pick in the @ menu");
  assert.match(await input.inputValue(), /^see @\/?src/, "the pick is in the input");
  await input.fill("");

  await pressByKeyboard("Start New Task");
  session.lap("new task by keyboard");

  const announced = await live();
  t.log(`announced, polite: ${JSON.stringify(announced.polite)}; assertive: ${JSON.stringify(announced.assertive)}; aria-busy went: ${announced.busy.join(" → ")}`);
  assert.ok(announced.polite.includes(INTRO), `the model's finished text is announced politely: ${JSON.stringify(announced.polite)}`);
  assert.ok(!announced.polite.some((text) => text !== INTRO && INTRO.startsWith(text)), `no streamed piece of it is announced: ${JSON.stringify(announced.polite)}`);
  assert.ok(announced.assertive.includes("Tandem asks to write this file: notes.md"), `the tool's approval is announced: ${JSON.stringify(announced.assertive)}`);
  assert.ok(announced.assertive.includes("Tandem asks to run a command: echo keyboard-check"), `the command's approval is announced: ${JSON.stringify(announced.assertive)}`);
  assert.ok(announced.assertive.includes(`Task Completed: ${RESULT}`), `the completion is announced: ${JSON.stringify(announced.assertive)}`);
  assert.ok(announced.busy.indexOf("true") >= 0 && announced.busy.lastIndexOf("false") > announced.busy.indexOf("true"), `the log is busy while the answer streams, then not: ${announced.busy.join(" → ")}`);

  // Plan/Act from the keyboard, with the focus in the panel.
  const mode = async () => (await webview.locator(".mode-option.active").innerText()).trim();
  assert.equal(await mode(), "Act");
  await expectFocusInInput("Start New Task");
  await page.keyboard.press("Control+Shift+A");
  await webview.locator('.mode-option.active:text-is("Plan")').waitFor({ timeout: 10_000 }).catch(async () => {
    throw new Error(`Ctrl+Shift+A with the focus in the panel's input did not switch to Plan (the mode is ${await mode()})`);
  });
  await expectFocusInInput("Ctrl+Shift+A");
  await page.keyboard.press("Control+Shift+A");
  await webview.locator('.mode-option.active:text-is("Act")').waitFor({ timeout: 10_000 });
  session.lap("Plan/Act by keyboard in the panel");

  // In an editor the key is the editor's (Linux's block comment): the mode stays.
  await openFileInEditor(page, "app.ts");
  // The file's text shown first: on a loaded machine a key pressed before that goes nowhere.
  const firstLine = page.locator(".monaco-editor .view-line").first();
  await firstLine.filter({ hasText: "export const app" }).waitFor({ timeout: 10_000 });
  await firstLine.click();
  await page.keyboard.press("Control+Shift+A");
  let line = "";
  await waitUntil(async () => /\/\*/.test((line = await firstLine.innerText())), "in an editor Ctrl+Shift+A stays the editor's (block comment on Linux)").catch((error) => {
    throw new Error(`${error.message}; the line reads ${line}`);
  });
  assert.equal(await mode(), "Act", "Ctrl+Shift+A in an editor leaves the mode alone");
  t.log(`keyboard flow done; screenshot: ${await saveScreenshot(page, "37-keyboard-editor")}`);
}
