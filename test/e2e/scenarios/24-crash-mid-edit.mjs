/**
 * The extension host dies (SIGKILL, as in a crash or an out-of-memory kill) while a proposed new
 * file waits for approval in the diff view, in code-server, where auto save is on by default.
 * Nothing gets a chance to undo the proposal, and nothing needs to: the file was never written.
 * When the window comes back, the restored diff tab of the dead host's proposal is closed before
 * anyone opens Tandem. The chat is back, and the task can go on to write the file for real.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { processGroupMembersMatching } from "../lib/processes.mjs";
import { editorTabLabels, expectWebviewText, openTandemView, runCommand, saveScreenshot, WORKBENCH_TIMEOUT } from "../lib/workbench.mjs";

export const description = "a crash during an approval leaves no unapproved file or editor behind";

const FILE = "plan/steps.md";
const WRITE = `<write_to_file>\n<path>${FILE}</path>\n<content>\n# Steps\n1. crash-proof\n</content>\n</write_to_file>`;

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function crashMidEdit(t) {
  const session = await t.startSession({
    files: { "README.md": "# crash me\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: false },
    script: [
      { text: `Planning first (BEFORE-CRASH-4Q).\n${WRITE}` },
      { text: `Writing the plan again.\n${WRITE}` },
      { text: "<attempt_completion>\n<result>The plan survived the crash.</result>\n</attempt_completion>" },
    ],
  });
  const { page } = session;
  const target = path.join(session.workspace, FILE);
  let webview = await openTandemView(page);
  const input = webview.getByRole("textbox").first();
  await input.fill("Write the plan");
  await input.press("Enter");
  await approveButton(webview).waitFor({ timeout: 20_000 });
  await page.locator(".tabs-container .tab", { hasText: "steps.md: New file" }).first().waitFor({ timeout: 10_000 });
  session.lap("approval open");
  // Longer than code-server's auto save delay (1 s): a proposal in the real file would be saved by now.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  assert.equal(existsSync(path.dirname(target)), false, "nothing is on disk while the proposal waits for approval");

  const hosts = await processGroupMembersMatching(session.codeServer.pid, /--type=extensionHost/);
  assert.equal(hosts.length, 1, `one extension host runs (found ${hosts.join(", ") || "none"})`);
  process.kill(hosts[0], "SIGKILL");
  t.log(`killed the extension host (pid ${hosts[0]})`);
  t.log(`screenshot (crashed): ${await saveScreenshot(page, "24-crash-mid-edit-crashed")}`);

  await runCommand(page, "Developer: Reload Window");
  await page.waitForEvent("load", { timeout: WORKBENCH_TIMEOUT });
  await page.locator(".monaco-workbench").waitFor({ timeout: WORKBENCH_TIMEOUT });
  session.lap("reloaded");

  // Tandem's view is not opened yet: the next host starts Tandem by itself to clean up.
  await waitUntil("no editor shows the dead host's proposal", async () => !(await editorTabLabels(page)).some((label) => label.includes("steps.md")), 30_000);
  assert.equal(existsSync(path.dirname(target)), false, "nothing was written by the crash or the reload");
  session.lap("cleaned up");

  webview = await openTandemView(page);
  await expectWebviewText(webview, "BEFORE-CRASH-4Q", 20_000);
  t.log(`screenshot (after): ${await saveScreenshot(page, "24-crash-mid-edit-after")}`);
  await clickButton(webview, "Resume Task", 20_000);
  await approveButton(webview).click({ timeout: 20_000 });
  await expectWebviewText(webview, "The plan survived the crash.", 20_000);
  session.lap("completed");
  assert.equal(readFileSync(target, "utf8"), "# Steps\n1. crash-proof\n", "the approved write reached the disk");
  assert.equal((await session.model.requests()).length, 3, "one request before the crash, two after it");
}

function approveButton(webview) {
  return webview.locator("vscode-button", { hasText: /^\s*Approve\s*$/ });
}

async function clickButton(webview, label, timeout = 10_000) {
  await webview.locator("vscode-button", { hasText: new RegExp(`^\\s*${label}\\s*$`) }).click({ timeout });
}

async function waitUntil(what, condition, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
