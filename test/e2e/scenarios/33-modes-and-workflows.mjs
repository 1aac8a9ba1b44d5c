/**
 * Plan/Act and workflows in the panel: the person clicks Plan, so the first request's system
 * prompt and environment details say Plan and the model's write_to_file is refused (nothing is
 * written); clicking Act ends the plan's wait and the same write runs. Then a workflow is run from
 * the `/` menu: `/rel` typed, `/release` picked with the keyboard, and the next request carries
 * the workflow file's text.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "Plan mode refuses a write and Act runs it; a workflow picked from the / menu reaches the model";

const WRITE = "<write_to_file>\n<path>notes.js</path>\n<content>export const notes = 1;\n</content>\n</write_to_file>";
const PLAN = "PLAN-READY: write notes.js once in Act mode.";
const WORKFLOW = "1. Bump the version.\n2. RELEASE-WORKFLOW-MARKER: tag and push.\n";
const RESULT = "Released.";

/** A request's user texts joined (Anthropic blocks or strings). */
function userText(request) {
  return request.body.messages
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((b) => b.text ?? JSON.stringify(b.content ?? "")).join("\n")))
    .join("\n");
}

const systemText = (request) => (typeof request.body.system === "string" ? request.body.system : (request.body.system ?? []).map((b) => b.text).join(""));

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function modesAndWorkflows(t) {
  const session = await t.startSession({
    files: { "README.md": "# modes\n", ".clinerules/workflows/release.md": WORKFLOW },
    tandem: { provider: "anthropic", modelId: "claude-sonnet-4-6", yolo: true },
    script: [
      { text: WRITE },
      { text: `<plan_mode_respond>\n<response>${PLAN}</response>\n</plan_mode_respond>` },
      { text: WRITE },
      { text: "<ask_followup_question>\n<question>Anything else?</question>\n</ask_followup_question>" },
      { text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` },
    ],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-ant-e2e-modes");
  const modes = webview.getByRole("group", { name: "Mode" });
  const plan = modes.getByRole("button", { name: "Plan" });
  const act = modes.getByRole("button", { name: "Act" });

  await plan.click();
  await webview.locator('.mode-option.active:text-is("Plan")').waitFor({ timeout: 10_000 });
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.click();
  await input.pressSequentially("Add notes.js", { delay: 20 });
  await input.press("Enter");
  await expectWebviewText(webview, PLAN, 30_000);
  session.lap("plan shown");

  const [first, second] = await session.model.requests();
  assert.match(systemText(first), /plan mode/i, "the first request's system prompt speaks of Plan mode");
  assert.match(userText(first), /# Mode\nPlan/, "the first request's environment details say Plan");
  assert.match(userText(second), /write_to_file[\s\S]*(refused|not allowed|Plan mode)/i, `the write was refused in Plan mode; the model was told: ${userText(second).slice(-800)}`);
  assert.equal(existsSync(path.join(session.workspace, "notes.js")), false, "nothing was written in Plan mode");

  await act.click();
  await webview.locator('.mode-option.active:text-is("Act")').waitFor({ timeout: 10_000 });
  await expectWebviewText(webview, "Anything else?", 30_000);
  assert.equal(readFileSync(path.join(session.workspace, "notes.js"), "utf8"), "export const notes = 1;\n", "after the switch to Act the same write ran");
  session.lap("act wrote the file");

  await input.click();
  await input.pressSequentially("/rel", { delay: 30 });
  const menu = webview.getByRole("listbox", { name: "Slash commands" });
  await menu.waitFor({ timeout: 15_000 });
  const option = menu.getByRole("option", { name: /\/release/ });
  await option.waitFor({ timeout: 15_000 });
  t.log(`/ menu offered: ${(await menu.getByRole("option").allInnerTexts()).map((s) => s.replace(/\s+/g, " ")).join(" | ")}; screenshot: ${await saveScreenshot(page, "33-slash-menu")}`);
  for (let i = 0; i < 10 && (await option.getAttribute("aria-selected")) !== "true"; i++) await input.press("ArrowDown");
  assert.equal(await option.getAttribute("aria-selected"), "true", "the arrow keys reach the workflow's row");
  await input.press("Enter");
  await menu.waitFor({ state: "hidden", timeout: 5_000 });
  assert.equal(await input.inputValue(), "/release ", "picking the workflow puts /release and a space in the input");
  await input.pressSequentially("v2", { delay: 20 });
  await input.press("Enter");
  await expectWebviewText(webview, RESULT, 30_000);
  await expectWebviewText(webview, "/release v2");

  const last = (await session.model.requests()).at(-1);
  const turn = JSON.stringify(last.body.messages.at(-1));
  assert.ok(turn.includes("RELEASE-WORKFLOW-MARKER") && turn.includes('<workflow name=\\"release\\">'), `the workflow's text reaches the model; the turn: ${turn.slice(0, 800)}`);
  t.log("Plan refused the write, Act ran it, and the /release workflow reached the model");
}
