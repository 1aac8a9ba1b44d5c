/**
 * axe-core on every main view of the panel, in Light Modern, Dark Modern and Dark High Contrast
 * (the "Default High Contrast" theme): the empty chat, the chat at each kind of question (a tool approval, a command
 * approval, a followup with options, an API failure, the completion, a Plan-mode answer with
 * options), YOLO's banner, the / and @ menus, Settings, the MCP view (a connected stdio server)
 * and History (with a search's marks too). Each view is checked in the three themes (picked in "Preferences: Color Theme" as a
 * person does: one VS Code for all, not one per theme), and every serious or critical violation of
 * every view is listed before the scenario fails. A page error (the panel crashing) is logged.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { formatViolations, webviewViolations } from "../lib/axe.mjs";
import { everythingServer, waitForEverythingToStop } from "../lib/mcp-everything.mjs";
import { openTandemView, pickQuickPickItem, runCommand, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const timeoutMs = 300_000;

export const description = "every main view of the panel has no serious or critical axe violation in Light Modern, Dark Modern and Dark High Contrast";


/** The theme picker's label, and the name VS Code gives the webview's body (data-vscode-theme-name). */
const THEMES = [
  { label: "Light Modern", name: /Light Modern/ },
  { label: "Dark Modern", name: /Dark Modern/ },
  { label: "Dark High Contrast", name: /Dark High Contrast|Default High Contrast$/ },
];

const WRITE = "<write_to_file>\n<path>notes.md</path>\n<content>AXE notes\n</content>\n</write_to_file>";
const COMMAND = "I'll check it.\n<execute_command>\n<command>echo axe-check</command>\n<requires_approval>true</requires_approval>\n</execute_command>";
const FOLLOWUP = '<ask_followup_question>\n<question>Which format?</question>\n<options>["Markdown", "Plain text"]</options>\n</ask_followup_question>';
const COMPLETE = "<attempt_completion>\n<result>Notes written.</result>\n</attempt_completion>";
const PLAN = '<plan_mode_respond>\n<response>I would add a heading.</response>\n<options>["Add a heading", "Leave it"]</options>\n</plan_mode_respond>';

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function axeThemes(t) {
  const session = await t.startSession({
    files: { "README.md": "# axe\n", "src/app.ts": "export const app = 1;\n" },
    tandem: { provider: "anthropic", modelId: "claude-sonnet-4-6", yolo: false },
    script: [{ text: WRITE }, { text: COMMAND }, { text: FOLLOWUP }, { kind: "fault", fault: "auth" }, { text: COMPLETE }, { text: PLAN }],
    beforeOpen: async (_page, dir) => {
      const storage = path.join(dir.userData, "User", "globalStorage", "tandem.tandem");
      mkdirSync(storage, { recursive: true });
      writeFileSync(path.join(storage, "tandem_mcp_settings.json"), JSON.stringify({ mcpServers: { everything: everythingServer(dir.runId) } }));
    },
  });
  const { page } = session;
  page.on("pageerror", (error) => t.log(`page error: ${error.stack ?? error.message}`));
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-ant-e2e-axe");
  const input = webview.getByRole("textbox", { name: "Message" });
  const button = (label) => webview.locator("vscode-button", { hasText: new RegExp(`^\\s*${label}\\s*$`) });
  /** @type {string[]} */
  const failures = [];
  let checked = 0;

  /** Picks the theme in "Preferences: Color Theme", as a person does, and waits until the webview has it. */
  const useTheme = async (theme) => {
    const body = webview.locator("body");
    if (theme.name.test((await body.getAttribute("data-vscode-theme-name")) ?? "")) return;
    await runCommand(page, "Preferences: Color Theme");
    await page.locator(".quick-input-widget input.input").fill(theme.label);
    await pickQuickPickItem(page, theme.label);
    const deadline = Date.now() + 15_000;
    let shown = "";
    while (Date.now() < deadline && !theme.name.test((shown = (await body.getAttribute("data-vscode-theme-name")) ?? ""))) await page.waitForTimeout(100);
    const workbench = await page.locator(".monaco-workbench").getAttribute("class");
    assert.match(shown, theme.name, `the webview took the theme ${theme.label}; its body says "${shown}", the workbench's classes: ${workbench}`);
    // The styles follow the attribute in the same task; give the elements' own renders a frame.
    await page.waitForTimeout(150);
  };
  /** axe in each theme on what the panel shows now; the last theme stays, the next view starts from it. */
  const checkView = async (view) => {
    for (const theme of checked % 2 === 0 ? THEMES : [...THEMES].reverse()) {
      const started = Date.now();
      await useTheme(theme);
      const switched = Date.now();
      const violations = await webviewViolations(page);
      t.log(`${view}, ${theme.label}: theme ${switched - started} ms, axe ${Date.now() - switched} ms, ${violations.length} serious or critical`);
      if (violations.length > 0) {
        failures.push(`${theme.label}, ${view}: ${formatViolations(violations)}`);
        t.log(failures.at(-1));
        await saveScreenshot(page, `38-axe-${view.replace(/\W+/g, "-")}-${theme.label.replace(/\W+/g, "-")}`);
      }
    }
    checked += 1;
    session.lap(view);
  };

  await checkView("chat, empty");

  await input.fill("Write notes.md");
  await input.press("Enter");
  await button("Approve").waitFor({ timeout: 30_000 });
  await checkView("chat, tool approval");
  await saveScreenshot(page, "38-axe-tool-approval");
  await button("Approve").click();

  await button("Run").waitFor({ timeout: 30_000 });
  await checkView("chat, command approval");
  await button("Run").click();

  await button("Plain text").waitFor({ timeout: 30_000 });
  await checkView("chat, followup with options");
  await button("Plain text").click();

  await button("Retry").waitFor({ timeout: 30_000 });
  await checkView("chat, API request failed");
  await button("Retry").click();

  await button("Start New Task").waitFor({ timeout: 30_000 });
  await checkView("chat, completion");

  // The menus, over the completed task (the input takes a reply).
  await input.click();
  await input.pressSequentially("/", { delay: 20 });
  await webview.getByRole("listbox", { name: "Slash commands" }).waitFor({ timeout: 15_000 });
  await checkView("slash menu");
  await input.fill("");
  await input.pressSequentially("see @src", { delay: 20 });
  await webview.getByRole("listbox", { name: "Mentions" }).getByRole("option").first().waitFor({ timeout: 15_000 });
  await checkView("mention menu");
  await input.press("Escape");
  await input.fill("");

  await button("Start New Task").click();
  await webview.getByRole("group", { name: "Mode" }).getByRole("button", { name: "Plan" }).click();
  await webview.locator('.mode-option.active:text-is("Plan")').waitFor({ timeout: 10_000 });
  await input.fill("Plan a heading");
  await input.press("Enter");
  await button("Leave it").waitFor({ timeout: 30_000 });
  await checkView("chat, plan mode answer");

  // YOLO's banner, and the auto-approve panel open with its warning.
  await webview.locator("vscode-collapsible.auto-approve-panel").getByText("Auto-approve:", { exact: false }).first().click();
  await webview.locator('vscode-checkbox[data-setting="yolo"]').click();
  await webview.locator(".yolo-banner").waitFor({ timeout: 15_000 });
  await checkView("chat, YOLO on");

  await runCommand(page, "Tandem: Open Settings");
  await webview.getByRole("heading", { name: "Settings" }).waitFor({ timeout: 10_000 });
  await checkView("settings");

  await runCommand(page, "Tandem: MCP Servers");
  await webview.getByRole("listitem", { name: "everything" }).getByText("Connected", { exact: true }).waitFor({ timeout: 30_000 });
  await checkView("MCP servers");
  // Disabled, the server's process ends now; left running it would outlive the harness's leftover check (as 30-mcp-server says).
  const server = webview.getByRole("listitem", { name: "everything" });
  await server.getByRole("button", { name: "Disable" }).click();
  await server.getByText("Disabled", { exact: true }).waitFor({ timeout: 10_000 });
  await waitForEverythingToStop(session.dir.runId);

  await runCommand(page, "Tandem: Show History");
  await webview.locator(".history-entry").first().waitFor({ timeout: 10_000 });
  await checkView("history");
  // A search's marks (the matched words) and a conversation's words under an entry.
  await webview.locator('vscode-textfield[aria-label="Search tasks and conversations"] input').fill("notes");
  await webview.locator(".history-entry mark").first().waitFor({ timeout: 10_000 });
  await checkView("history, searched");

  t.log(`${checked} views in ${THEMES.length} themes checked; screenshot: ${await saveScreenshot(page, "38-axe-history")}`);
  assert.equal(failures.length, 0, `axe found serious or critical violations:\n${failures.join("\n")}`);
}

