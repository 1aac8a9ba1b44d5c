/**
 * execute_command runs in a VS Code terminal named "Tandem": the person clicks Run, the terminal
 * panel shows the command and its output, and the output (which only a real shell can produce
 * from the command) reaches the model in the next request. No terminal was opened before: this is
 * the session's first, which also starts VS Code's pty host, as for a person's first command.
 */
import assert from "node:assert/strict";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "a command runs in the Tandem terminal and its output reaches the model";

const COMMAND = "echo tandem-$((6*7))";
const OUTPUT = "tandem-42";
const RESULT = "The shell says tandem-42.";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function commandTerminal(t) {
  const session = await t.startSession({
    files: { "README.md": "# terminal demo\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: false },
    // The DOM renderer keeps the terminal's text readable from the page (no canvas).
    settings: { "terminal.integrated.gpuAcceleration": "off" },
    script: [
      { text: `Let me ask the shell.\n<execute_command>\n<command>${COMMAND}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` },
      { text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` },
    ],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-e2e-terminal");
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("What is six times seven in the shell?");
  await input.press("Enter");

  const run = webview.getByRole("button", { name: "Run" });
  await run.waitFor({ timeout: 30_000 });
  await expectWebviewText(webview, COMMAND, 5_000);
  await run.click();
  session.lap("Run clicked");

  // The host falls back to a plain child process when shell integration is late; say so plainly.
  const fallback = webview.getByText("shell integration unavailable", { exact: false });
  const terminal = page.locator(".part.panel .terminal-wrapper.active .xterm-rows");
  await waitForText(terminal, OUTPUT, 30_000, async () => {
    if (await fallback.count()) throw new Error(`the command ran as a child process, not in a terminal: the panel shows "${(await fallback.first().innerText()).trim()}"`);
  });
  const screen = await terminal.innerText();
  assert.ok(screen.includes(COMMAND), `the terminal shows the command as typed; it shows: ${oneLine(screen)}`);
  const names = await terminalNames(page);
  assert.ok(names.some((name) => /^Tandem\b/.test(name)), `a terminal named "Tandem" runs the command; the terminals are: ${names.join(", ") || "none"}`);
  t.log(`terminals: ${names.join(", ")}; screenshot: ${await saveScreenshot(page, "14-command-terminal")}`);

  await expectWebviewText(webview, RESULT, 30_000);
  session.lap("completion shown");
  const requests = await session.model.requests();
  assert.equal(requests.length, 2, "one request for the command, one with its output");
  const lastTurn = JSON.stringify(requests[1].body.messages.at(-1));
  assert.ok(lastTurn.includes(OUTPUT), `the command's output reaches the model; the last turn: ${lastTurn.slice(0, 400)}`);
}

/**
 * The terminals the terminal panel lists: the tab list when it shows, else the single terminal's
 * title in the panel's toolbar.
 * @param {import("playwright-core").Page} page
 */
async function terminalNames(page) {
  const tabs = await page.locator(".part.panel .terminal-tabs-entry .monaco-icon-label").allInnerTexts();
  const single = await page.locator(".part.panel .single-terminal-tab").allInnerTexts();
  return [...tabs, ...single].map((name) => name.trim()).filter(Boolean);
}

/**
 * Waits until the locator's text contains `text`; `check` runs on every poll and may throw to stop early.
 * @param {import("playwright-core").Locator} locator
 * @param {() => Promise<void>} [check]
 */
async function waitForText(locator, text, timeout, check) {
  const deadline = Date.now() + timeout;
  let shown = "";
  while (Date.now() < deadline) {
    shown = (await locator.first().innerText().catch(() => "")).replace(/\u00a0/g, " ");
    if (shown.includes(text)) return;
    await check?.();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const panel = await locator.page().locator(".part.panel").innerText().catch(() => "(no panel)");
  throw new Error(`the terminal never showed "${text}" within ${timeout} ms; it shows: ${oneLine(shown)}; the panel: ${oneLine(panel)}`);
}

function oneLine(text) {
  return text.replace(/\s+/g, " ").slice(0, 300);
}
