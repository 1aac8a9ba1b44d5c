/**
 * The command sandbox in the shipped extension: with bubblewrap on the machine and the sandbox on
 * by default (`auto`), a YOLO task runs `echo hi > ../outside.txt; touch inside.txt` in the Tandem
 * terminal. The write outside the workspace is refused by the sandbox, the one inside lands, and
 * the settings view says the sandbox is on. The .vsix must carry the library's apply-seccomp,
 * executable: bubblewrap execs it for every sandboxed command.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { savedSetting } from "../lib/settings.mjs";
import { expectWebviewText, openTandemView, runCommand, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "YOLO with the sandbox on: a write outside the workspace is refused, one inside lands, in the Tandem terminal";

const COMMAND = "echo hi > ../outside.txt; touch inside.txt";
const RESULT = "Tried both writes.";
const SANDBOX_ON = "On: commands run in the sandbox (bubblewrap).";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function sandboxYolo(t) {
  if (!existsSync("/usr/bin/bwrap")) throw new Error("bubblewrap is not installed (/usr/bin/bwrap): apt-get install bubblewrap socat");
  const session = await t.startSession({
    files: { "README.md": "# sandbox demo\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: true },
    settings: { "terminal.integrated.gpuAcceleration": "off" },
    script: [
      { text: `Both writes, in one line.\n<execute_command>\n<command>${COMMAND}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` },
      { text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` },
    ],
  });
  const { page } = session;
  checkVendorHelpers(session.dir.extensions);

  const webview = await openTandemView(page);
  await setApiKey(page, "sk-e2e-sandbox");
  // The panel hears the sandbox once the machine has been checked.
  await runCommand(page, "Tandem: Open Settings");
  await expectWebviewText(webview, SANDBOX_ON, 30_000);
  const state = webview.getByRole("status", { name: "Sandbox state" });
  await state.scrollIntoViewIfNeeded();
  t.log(`settings: ${(await state.innerText()).replace(/\s+/g, " ").slice(0, 300)}`);
  t.log(`screenshot (settings): ${await saveScreenshot(page, "27-sandbox-settings")}`);
  // A change in the view reaches settings.json and comes back as the sandbox's own state.
  const network = webview.locator('vscode-single-select[aria-label="Network"]');
  await network.click();
  await network.locator("li.option", { hasText: "No network" }).click();
  await state.getByText("No network").waitFor({ timeout: 10_000 });
  // VS Code may still be rewriting settings.json when the change has already come back: read it until it parses.
  assert.equal(await savedSetting(session.dir.userSettings, "tandem.sandbox.network", "none"), "none", "the network choice is saved");
  await webview.getByRole("button", { name: "Done" }).click();
  session.lap("settings show the sandbox on");

  // The YOLO warning (in the collapsed auto-approve bar) says the same, not "the guard alone judges".
  const warning = (await webview.locator(".yolo-warning").textContent()) ?? "";
  assert.match(warning, /Commands run in the sandbox \(bubblewrap\)/, `the YOLO warning says commands are sandboxed; it says: ${warning}`);
  assert.doesNotMatch(warning, /alone judges/, "the YOLO warning does not say the guard alone judges");
  assert.match(warning, /reach no network/, "the YOLO warning follows the network choice");

  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Write one file outside the workspace and one inside");
  await input.press("Enter");
  await expectWebviewText(webview, RESULT, 60_000);
  session.lap("completion shown");

  const inside = path.join(session.workspace, "inside.txt");
  const outside = path.join(path.dirname(session.workspace), "outside.txt");
  assert.ok(existsSync(inside), "inside.txt, in the workspace, was written");
  assert.ok(!existsSync(outside), `../outside.txt must not exist: the sandbox lets commands write only in the workspace (${outside})`);

  const names = await terminalNames(page);
  assert.ok(names.some((name) => /^Tandem\b/.test(name)), `the command ran in a terminal named "Tandem"; the terminals are: ${names.join(", ") || "none"}`);
  const fallback = await webview.getByText("shell integration unavailable", { exact: false }).count();
  t.log(`terminals: ${names.join(", ")}${fallback ? " (output captured without shell integration)" : ""}`);

  const requests = await session.model.requests();
  assert.equal(requests.length, 2, "one request for the command, one with its result");
  const lastTurn = JSON.stringify(requests[1].body.messages.at(-1));
  t.log(`what the model heard: ${lastTurn.slice(0, 600)}`);
  assert.match(lastTurn, /read-only|sandbox/i, "the model hears that the write outside was blocked");
  t.log(`screenshot: ${await saveScreenshot(page, "27-sandbox-yolo")}`);
}

/**
 * The installed extension's copy of the sandbox library's seccomp helper: present and executable.
 * @param {string} extensionsDir
 */
function checkVendorHelpers(extensionsDir) {
  const installed = readdirSync(extensionsDir).find((name) => name.startsWith("tandem.tandem-"));
  assert.ok(installed, `the .vsix is installed in ${extensionsDir}`);
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const helper = path.join(extensionsDir, installed, "dist", "vendor", "seccomp", arch, "apply-seccomp");
  assert.ok(existsSync(helper), `the installed extension lacks ${helper}: the .vsix must carry dist/vendor/ (esbuild-options.mjs, .vscodeignore)`);
  const mode = statSync(helper).mode & 0o777;
  assert.ok(mode & 0o111, `${helper} is not executable after install (mode ${mode.toString(8)}): bubblewrap cannot exec it`);
}

/**
 * The terminals the terminal panel lists (as 14-command-terminal reads them).
 * @param {import("playwright-core").Page} page
 */
async function terminalNames(page) {
  const tabs = await page.locator(".part.panel .terminal-tabs-entry .monaco-icon-label").allInnerTexts();
  const single = await page.locator(".part.panel .single-terminal-tab").allInnerTexts();
  return [...tabs, ...single].map((name) => name.trim()).filter(Boolean);
}

