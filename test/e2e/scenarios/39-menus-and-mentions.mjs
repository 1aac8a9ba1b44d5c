/**
 * The small things of the panel at the default side bar width (about 300 px): the `/` and `@`
 * menus show every name whole (no ellipsis) and the `@` menu offers no VCS internals (.git/);
 * a mention typed in the input is highlighted there; a folder mention brings its small text
 * files' contents to the model, never a secret or ignored file's; Settings knows the default
 * model; Settings and History do not scroll sideways.
 *
 * Each point is checked and every failure collected, so one run says which of them hold.
 */
/* global window, document, getComputedStyle -- the functions given to evaluate() run in the webview */
import assert from "node:assert/strict";
import { expectWebviewText, openTandemView, runCommand, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "menus show whole names at 300 px without .git/; mentions highlighted; a folder mention carries its files (no secrets); default model known; no sideways scroll";

const RESULT = "I read the folder.";
/** A long word with no break in it (as paths and URLs are), for History to wrap. */
const LONG_WORD = "docs/decisions/record_architecture_decisions_and_keep_them_in_one_place.md";
const LONG_WORKFLOW = "prepare-release-checklist";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function menusAndMentions(t) {
  const session = await t.startSession({
    files: {
      "README.md": "# menus\n",
      ".clinerules/typescript-react-and-node-service-coding-conventions.md": "Prefer small files.\n",
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/config": "[core]\n",
      ".tandemignore": "src/private-notes.md\n",
      [`.clinerules/workflows/${LONG_WORKFLOW}.md`]: "Check every item of the release checklist before tagging.\n",
      "src/alpha.ts": "export const alpha = 'ALPHA-FOLDER-MARKER';\n",
      "src/beta.md": "BETA-FOLDER-MARKER\n",
      "src/.env": "API_TOKEN=SECRET-ENV-MARKER\n",
      "src/private-notes.md": "IGNORED-FILE-MARKER\n",
      "src/nested/deep.ts": "export const deep = 'DEEP-MARKER';\n",
    },
    // No model id: the provider's default model, as a new user has it.
    tandem: { provider: "anthropic", yolo: false },
    script: [{ text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` }],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-ant-e2e-menus");
  /** @type {string[]} */
  const failures = [];
  const check = (ok, message) => {
    if (!ok) failures.push(message);
  };
  const width = await webview.locator("body").evaluate(() => window.innerWidth);
  t.log(`the webview is ${width} px wide`);
  check(width <= 340, `the side bar is at its default width (about 300 px), not ${width} px`);

  const input = webview.getByRole("textbox", { name: "Message" });
  await input.click();

  // 1. The / menu: every name whole.
  await input.pressSequentially("/", { delay: 30 });
  const slashMenu = webview.getByRole("listbox", { name: "Slash commands" });
  await slashMenu.waitFor({ timeout: 15_000 });
  await slashMenu.getByRole("option", { name: new RegExp(LONG_WORKFLOW) }).waitFor({ timeout: 15_000 });
  const slashNames = await namesOf(slashMenu);
  t.log(`/ menu: ${slashNames.map((n) => `${n.text}${n.cut ? " (cut)" : ""}`).join(" | ")}; screenshot: ${await saveScreenshot(page, "39-slash-menu")}`);
  for (const name of ["/newtask", "/compact", "/newrule", `/${LONG_WORKFLOW}`]) check(slashNames.some((n) => n.text === name), `the / menu shows the name ${name} whole; it shows: ${slashNames.map((n) => n.text).join(" | ")}`);
  for (const name of slashNames) check(!name.cut, `the / menu's name "${name.text}" is shown whole (${name.scrollWidth} px of text in ${name.clientWidth} px, right edge ${name.right} of ${width})`);
  await input.press("Escape");
  await input.fill("");

  // 2. The @ menu: every name whole, no .git/.
  await input.pressSequentially("@", { delay: 30 });
  const mentionMenu = webview.getByRole("listbox", { name: "Mentions" });
  await mentionMenu.waitFor({ timeout: 15_000 });
  await mentionMenu.getByRole("option", { name: /src\// }).first().waitFor({ timeout: 15_000 });
  const atNames = await namesOf(mentionMenu);
  t.log(`@ menu: ${atNames.map((n) => `${n.text}${n.cut ? " (cut)" : ""}`).join(" | ")}; screenshot: ${await saveScreenshot(page, "39-mention-menu")}`);
  for (const name of ["Problems", "Git changes", "src/", "README.md"]) check(atNames.some((n) => n.text === name), `the @ menu shows ${name} whole; it shows: ${atNames.map((n) => n.text).join(" | ")}`);
  for (const name of atNames) check(!name.cut, `the @ menu's name "${name.text}" is shown whole (${name.scrollWidth} px of text in ${name.clientWidth} px, right edge ${name.right} of ${width})`);
  check(!atNames.some((n) => /^\.git(\/|$)/.test(n.text)), `the @ menu offers no .git/ entries; it offers: ${atNames.map((n) => n.text).join(" | ")}`);
  await input.pressSequentially(".git", { delay: 30 });
  await page.waitForTimeout(800);
  const gitNames = (await mentionMenu.isVisible()) ? await namesOf(mentionMenu) : [];
  check(!gitNames.some((n) => /^\.git\//.test(n.text)), `typing @.git offers none of .git's insides; it offers: ${gitNames.map((n) => n.text).join(" | ")}`);
  await input.press("Escape");
  await input.fill("");

  // 3. A typed mention is highlighted in the input, under its typed text; the layer wraps and scrolls as the text does.
  await input.pressSequentially("Summarise @/src/ ", { delay: 30 });
  await webview.getByRole("listbox", { name: "Mentions" }).waitFor({ state: "hidden", timeout: 5_000 });
  const mark = webview.locator(".chat-input mark", { hasText: "@/src/" });
  const marked = await mark.waitFor({ state: "attached", timeout: 3_000 }).then(() => true, () => false);
  check(marked, "the mention @/src/ is highlighted in the input");
  if (marked) {
    check((await mark.innerText()) === "@/src/", `exactly the mention is highlighted, not "${await mark.innerText()}"`);
    // Where the textarea draws "@/src/": after "Summarise " on the first line, inside its border and padding.
    const expected = await input.evaluate((el) => {
      const style = getComputedStyle(el);
      const context = document.createElement("canvas").getContext("2d");
      if (!context) return undefined;
      context.font = style.font;
      const box = el.getBoundingClientRect();
      const markBox = el.parentElement?.querySelector("mark")?.getBoundingClientRect();
      const text = { x: box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft) + context.measureText("Summarise ").width, y: box.top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop) };
      return { ...text, mark: markBox && { x: markBox.left, y: markBox.top } };
    });
    const box = expected?.mark;
    const near = Boolean(expected && box && Math.abs(box.x - expected.x) <= 1.5 && Math.abs(box.y - expected.y) <= 4);
    t.log(`the mention's mark at ${JSON.stringify(box)}; the typed mention at ${JSON.stringify(expected)}`);
    check(near, `the highlight lies under the typed mention: at ${JSON.stringify(box)}, the text at ${JSON.stringify(expected)}`);
  }
  t.log(`screenshot: ${await saveScreenshot(page, "39-mention-highlight")}`);
  await input.pressSequentially(`for me, as ${LONG_WORD} says`, { delay: 10 });
  const layout = await input.evaluate((el) => {
    const layer = el.parentElement?.querySelector(".chat-input-highlight");
    return { textarea: [el.scrollHeight, el.scrollTop], layer: layer ? [layer.scrollHeight, layer.scrollTop] : undefined };
  });
  check(JSON.stringify(layout.textarea) === JSON.stringify(layout.layer), `with long wrapped text the layer's height and scroll follow the textarea's: ${JSON.stringify(layout)}`);
  check((await input.inputValue()) === `Summarise @/src/ for me, as ${LONG_WORD} says`, `the input holds what was typed: ${await input.inputValue()}`);

  // 4. The folder mention carries its files' contents to the model, never the secret or ignored one.
  await input.press("Enter");
  await expectWebviewText(webview, RESULT, 30_000);
  const [first] = await session.model.requests();
  const turn = JSON.stringify(first.body.messages.at(-1));
  check(turn.includes("ALPHA-FOLDER-MARKER") && turn.includes("BETA-FOLDER-MARKER"), `the folder's files' contents reach the model; the turn: ${turn.slice(0, 1200)}`);
  check(!turn.includes("SECRET-ENV-MARKER"), "the secret file's content never reaches the model");
  check(!turn.includes("IGNORED-FILE-MARKER"), "the ignored file's content never reaches the model");
  t.log(`the folder mention sent: ${(/<folder_content[\s\S]*?<\/folder_content>/.exec(JSON.parse(turn).content.map((b) => b.text ?? "").join("\n"))?.[0] ?? "(none)").replace(/\n/g, "⏎").slice(0, 700)}`);

  // 5. Settings knows the default model and does not scroll sideways.
  await runCommand(page, "Tandem: Open Settings");
  await webview.getByRole("heading", { name: "Settings" }).waitFor({ timeout: 10_000 });
  const picker = webview.locator('vscode-single-select[aria-label="Known models"]');
  await picker.waitFor({ timeout: 10_000 });
  const picked = await picker.evaluate((el) => /** @type {HTMLSelectElement} */ (el).value);
  const settingsText = await webview.locator("body").innerText();
  check(picked === "claude-sonnet-5-5", `the model picker shows the default claude-sonnet-5-5, not "${picked}"`);
  check(!settingsText.includes("Not a known model"), "Settings does not call the default model unknown");
  const pickerHelp = await webview.locator(".field", { has: picker }).locator(".field-help").innerText().catch(() => "");
  check(/default/i.test(pickerHelp), `Settings says the model in use is the default; the picker's help says: ${pickerHelp}`);
  await page.waitForTimeout(300);
  const settingsOverflow = await overflowOf(webview);
  // The picker open, its models and their prices listed.
  await picker.click();
  await page.waitForTimeout(500);
  const openPicker = await overflowOf(webview);
  t.log(`Settings with the model picker open: ${JSON.stringify(openPicker)}; screenshot: ${await saveScreenshot(page, "39-settings-picker-open")}`);
  check(openPicker.scrollWidth <= openPicker.clientWidth, `Settings with the model picker open does not scroll sideways (${openPicker.scrollWidth} > ${openPicker.clientWidth})`);
  await page.keyboard.press("Escape");
  t.log(`Settings: ${JSON.stringify(settingsOverflow)}; screenshot: ${await saveScreenshot(page, "39-settings")}`);
  check(settingsOverflow.scrollWidth <= settingsOverflow.clientWidth, `Settings does not scroll sideways (${settingsOverflow.scrollWidth} > ${settingsOverflow.clientWidth})`);
  check(settingsOverflow.wider.length === 0, `nothing in Settings is wider than the panel: ${settingsOverflow.wider.join("; ")}`);

  // 6. History neither.
  await runCommand(page, "Tandem: Show History");
  await webview.locator(".history-entry").first().waitFor({ timeout: 10_000 });
  await page.waitForTimeout(300);
  const historyOverflow = await overflowOf(webview);
  t.log(`History: ${JSON.stringify(historyOverflow)}; screenshot: ${await saveScreenshot(page, "39-history")}`);
  check(historyOverflow.scrollWidth <= historyOverflow.clientWidth, `History does not scroll sideways (${historyOverflow.scrollWidth} > ${historyOverflow.clientWidth})`);
  check(historyOverflow.wider.length === 0, `nothing in History is wider than the panel: ${historyOverflow.wider.join("; ")}`);

  assert.deepEqual(failures, [], `${failures.length} check(s) failed:\n- ${failures.join("\n- ")}`);
  t.log("names whole, no .git/, mention highlighted, folder contents sent without secrets, default model known, no sideways scroll");
}

/**
 * Each option's name: its text, and whether it is cut (its text wider than its box, or its box
 * past the panel's right edge).
 * @param {import("playwright-core").Locator} menu
 */
async function namesOf(menu) {
  return menu.locator('[role="option"] .mention-label').evaluateAll((els) =>
    els.map((el) => {
      const box = el.getBoundingClientRect();
      const { scrollWidth, clientWidth } = el;
      const right = Math.round(box.right);
      return { text: el.textContent ?? "", scrollWidth, clientWidth, right, cut: scrollWidth > clientWidth + 1 || right > window.innerWidth + 1 };
    }),
  );
}

/**
 * Whether the webview's document scrolls sideways, and the visible elements whose right edge
 * passes the viewport's.
 * @param {import("playwright-core").FrameLocator} webview
 */
async function overflowOf(webview) {
  return webview.locator("body").evaluate(() => {
    const root = /** @type {Element} */ (document.scrollingElement);
    const limit = window.innerWidth + 1;
    const wider = [];
    for (const el of document.querySelectorAll("body *")) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.right <= limit) continue;
      // Something inside a scroll box of its own (a code block) may be wide; the panel is not.
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (/(auto|scroll|hidden|clip)/.test(style.overflowX) && p.getBoundingClientRect().right <= limit) clipped = true;
      }
      if (!clipped) wider.push(`${el.tagName.toLowerCase()}.${String(el.className).split(" ")[0]} right=${Math.round(box.right)}`);
    }
    // Text that would be wider, hidden by its own box instead of wrapping, is lost too.
    for (const el of document.querySelectorAll("body *")) {
      if (el.getBoundingClientRect().width === 0 || el.scrollWidth <= el.clientWidth + 1) continue;
      if (/(hidden|clip)/.test(getComputedStyle(el).overflowX)) wider.push(`${el.tagName.toLowerCase()}.${String(el.className).split(" ")[0]} cuts its text (${el.scrollWidth} px in ${el.clientWidth} px)`);
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, innerWidth: window.innerWidth, wider: wider.slice(0, 8) };
  });
}
