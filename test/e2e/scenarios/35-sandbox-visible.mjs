/**
 * What the sandbox did, shown to the person. With bubblewrap on the machine (the sandbox on by
 * default), three approved commands run: the command row says, before Run is clicked, that it will
 * run in the sandbox and what the sandbox lets it do; once each ended, its row says the exit code
 * (0, then 3); a write outside the workspace says what the sandbox blocked and why, and names the
 * setting that would allow it. The Tandem terminal shows each command as typed, once, and never
 * the sandbox's launcher line.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { waitUntil } from "../lib/wait.mjs";
import { openTandemView, expectWebviewText, runCommand, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "the command row shows the sandbox state and the exit code, a block says why and which setting allows it; the terminal shows each command once";

const OK = "echo visible-ok";
const THREE = "echo visible-three && (exit 3)";
const BLOCKED = "echo hi > ../outside-visible.txt";
const RESULT = "Three commands ran.";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function sandboxVisible(t) {
  if (!existsSync("/usr/bin/bwrap")) throw new Error("bubblewrap is not installed (/usr/bin/bwrap): apt-get install bubblewrap socat");
  const call = (command) => ({ text: `Running it.\n<execute_command>\n<command>${command}</command>\n<requires_approval>true</requires_approval>\n</execute_command>` });
  const session = await t.startSession({
    files: { "README.md": "# sandbox visible\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: false },
    // The DOM renderer keeps the terminal's text readable from the page (no canvas).
    settings: { "terminal.integrated.gpuAcceleration": "off" },
    script: [call(OK), call(THREE), call(BLOCKED), { text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` }],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-e2e-sandbox-visible");
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Run three commands.");
  await input.press("Enter");

  const run = webview.getByRole("button", { name: "Run", exact: true });
  const lastCommandRow = webview.locator('[data-row="ask:command"]').last();
  const lastOutputRow = webview.locator('[data-row="say:command_output"]').last();

  // 1. The question says where the command will run, before the person approves it.
  await run.waitFor({ timeout: 30_000 });
  await lastCommandRow.getByText(/In the sandbox \(bubblewrap\)/).waitFor({ timeout: 10_000 }).catch(async () => {
    throw new Error(`the command row does not say it runs in the sandbox; it shows: ${oneLine(await lastCommandRow.innerText())}`);
  });
  const asked = oneLine(await lastCommandRow.innerText());
  assert.match(asked, /network/i, `the command row says what network the sandbox allows; it shows: ${asked}`);
  t.log(`the question: ${asked}`);
  await run.click();
  await rowShows(lastOutputRow, "Exit code 0", "the first command's output row");
  assert.match(oneLine(await lastOutputRow.innerText()), /visible-ok/, "the exit code sits with that command's output");
  session.lap("exit code 0 shown");

  // 2. A failing command's row says its exit code.
  await run.waitFor({ timeout: 30_000 });
  await expectWebviewText(webview, THREE, 5_000);
  await run.click();
  await rowShows(lastOutputRow, "Exit code 3", "the second command's output row");
  t.log(`screenshot (exit 3): ${await saveScreenshot(page, "35-sandbox-visible-exit")}`);

  // 3. A write outside the workspace: what was blocked, why, and the setting that would allow it.
  await run.waitFor({ timeout: 30_000 });
  await expectWebviewText(webview, BLOCKED, 5_000);
  await run.click();
  const blockedRow = webview.locator('[data-row="say:command_output"]', { hasText: "outside-visible.txt" }).last();
  const block = blockedRow.locator(".sandbox-block");
  await block.waitFor({ timeout: 30_000 }).catch(async () => {
    throw new Error(`no block explanation in the panel; the last output row shows: ${oneLine(await lastOutputRow.innerText().catch(() => "(none)"))}`);
  });
  const explained = oneLine(await block.innerText());
  t.log(`the block: ${explained}`);
  assert.match(explained, /blocked/i, `the row says the sandbox blocked something; it shows: ${explained}`);
  assert.match(explained, /outside-visible\.txt/, `the row names what was blocked; it shows: ${explained}`);
  assert.match(explained, /tandem\.sandbox\.writableFolders/, `the row names the setting that would allow it; it shows: ${explained}`);
  await block.scrollIntoViewIfNeeded();
  t.log(`screenshot (blocked): ${await saveScreenshot(page, "35-sandbox-visible-blocked")}`);
  await expectWebviewText(webview, RESULT, 30_000);
  session.lap("completion shown");

  // 4. The Tandem terminal: each command as typed, once; no launcher.
  await runCommand(page, "View: Toggle Maximized Panel");
  const terminal = page.locator(".part.panel .terminal-wrapper.active .xterm-rows");
  await terminal.first().waitFor({ timeout: 10_000 });
  // Drawn in its own time (slower on a loaded machine): read once all three commands show, and
  // again a moment later, when a repeated line would show too.
  const read = async () => (await terminal.first().innerText()).replace(/\u00a0/g, " ");
  let screen = "";
  await waitUntil(async () => {
    screen = await read();
    return [OK, THREE, BLOCKED].every((command) => screen.includes(command));
  }, "the terminal shows the three commands").catch((error) => {
    throw new Error(`${error.message}; it shows: ${oneLine(screen)}`);
  });
  await page.waitForTimeout(300);
  screen = await read();
  t.log(`terminal: ${oneLine(screen)}; screenshot: ${await saveScreenshot(page, "35-sandbox-visible-terminal")}`);
  assert.doesNotMatch(screen, /sandboxed-command-|launchers\//, `the terminal shows no launcher line; it shows: ${oneLine(screen)}`);
  for (const command of [OK, THREE, BLOCKED]) {
    const times = screen.split(command).length - 1;
    assert.equal(times, 1, `the terminal shows "${command}" once; it shows it ${times} times: ${oneLine(screen)}`);
  }
}

/**
 * Waits until the row's text contains `text`.
 * @param {import("playwright-core").Locator} row
 */
async function rowShows(row, text, what) {
  try {
    await row.getByText(text).first().waitFor({ timeout: 30_000 });
  } catch {
    throw new Error(`${what} never showed "${text}"; it shows: ${oneLine(await row.innerText().catch(() => "(no such row)"))}`);
  }
}

function oneLine(text) {
  return text.replace(/\s+/g, " ").slice(0, 500);
}
