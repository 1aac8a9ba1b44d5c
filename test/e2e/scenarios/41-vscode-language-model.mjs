/**
 * The vscode-lm provider in a real VS Code: a chat model another extension contributes (the
 * fixture test/e2e/fixtures/lm-provider-extension, installed beside Tandem's .vsix, as Copilot
 * Chat would be) runs a task. Its first request makes VS Code ask the person whether Tandem may
 * use the model, with Tandem's justification. Cancel there fails the request as refused access
 * (Tandem's auth error, which says where to allow it, and is not retried by itself); Retry asks
 * again, and after Allow the model's native tool call proposes a file, Approve writes it, and the
 * completion arrives as a second tool call. The fixture
 * records what it received: Tandem's system prompt as the first user message, Tandem's tools
 * (toolMode auto), and the tool result of the write in the second request. Last, the place the
 * refusal message names (Accounts menu, Language Models, Manage Trusted Extensions) lists Tandem.
 *
 * VS Code 1.100 lets an extension contribute a model only through the proposed `chatProvider` API
 * (`vscode.lm.registerChatModelProvider` and the `languageModels` vendor contribution);
 * code-server enables proposed APIs for every extension, so the fixture declares it in its
 * `enabledApiProposals` and needs no flag.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { installExtension } from "../lib/code-server.mjs";
import { E2E_DIR, REPO_ROOT } from "../lib/paths.mjs";
import { expectWebviewText, openTandemView, saveScreenshot } from "../lib/workbench.mjs";

export const description = "a model another extension provides through VS Code's LM API: consent asked, native tool call approved, file written";

const run = promisify(execFile);
const FIXTURE = path.join(E2E_DIR, "fixtures/lm-provider-extension");
const FIXTURE_ID = "tandem-e2e.lm-provider";
const MODEL_ID = "tandem-e2e-model";
const FILE = "greeting.txt";
const CONTENT = "Hello from a model VS Code provides!";
const RESULT = "Created greeting.txt with the model VS Code provides.";
/** The fixture answers request N with turn N. */
const SCRIPT = [
  { text: "I will create the greeting file.", delayMs: 150, toolCalls: [{ id: "lm-call-1", name: "write_to_file", input: { path: FILE, content: CONTENT } }] },
  { toolCalls: [{ id: "lm-call-2", name: "attempt_completion", input: { result: RESULT } }] },
];

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function vscodeLanguageModel(t) {
  let storage = "";
  const session = await t.startSession({
    files: { "README.md": "# greetings\n" },
    tandem: { provider: "vscode-lm", modelId: MODEL_ID, yolo: false, extra: { toolCallMode: "native" } },
    // After code-server is up, before the workbench (and so the extension host) starts.
    beforeOpen: async (_page, dir) => {
      const vsix = path.join(dir.root, "lm-provider.vsix");
      await run(path.join(REPO_ROOT, "node_modules/.bin/vsce"), ["package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "--out", vsix], {
        cwd: FIXTURE,
        timeout: 60_000,
      });
      await installExtension(dir, vsix);
      storage = path.join(dir.userData, "User", "globalStorage", FIXTURE_ID);
      mkdirSync(storage, { recursive: true });
      writeFileSync(path.join(storage, "script.json"), JSON.stringify(SCRIPT));
    },
  });
  const { page } = session;
  const target = path.join(session.workspace, FILE);
  const requestsFile = path.join(storage, "requests.jsonl");
  const webview = await openTandemView(page);
  session.lap("view shown");

  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Create a greeting file");
  await input.press("Enter");
  session.lap("task sent");

  // VS Code asks before Tandem may use another extension's model, showing Tandem's justification.
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.waitFor({ timeout: 30_000 });
  const asked = (await dialog.innerText()).replace(/\s+/g, " ");
  t.log(`consent dialog: ${asked}`);
  assert.match(asked, /The extension 'Tandem' wants to access the language models provided by Tandem E2E Language Model/, "the dialog names Tandem and the model's extension");
  assert.match(asked, /Justification: Tandem sends this model your task/, "the dialog shows Tandem's justification");
  t.log(`screenshot (consent): ${await saveScreenshot(page, "41-vscode-language-model-consent")}`);

  // Refused: the request fails as refused access, says where to allow it, and waits for the person.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  const failed = webview.locator('[data-row="ask:api_req_failed"]');
  await failed.waitFor({ timeout: 15_000 });
  const refusal = (await failed.innerText()).replace(/\s+/g, " ");
  t.log(`refused: ${refusal}`);
  assert.match(refusal, /VS Code did not let Tandem use the model "tandem-e2e-model": allow it when VS Code asks/, "the error says what happened and where to allow it");
  assert.match(refusal, /Manage Trusted Extensions/);
  // An auth failure is not retried by itself (an unknown one would be, and VS Code would ask again now).
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  assert.equal(await dialog.count(), 0, "VS Code does not ask again until the person retries");
  assert.equal(existsSync(requestsFile), false, "nothing reaches the model while access is refused");
  session.lap("consent refused");

  await webview.getByRole("button", { name: "Retry" }).click();
  await dialog.waitFor({ timeout: 15_000 });
  await dialog.getByRole("button", { name: "Allow" }).click();
  session.lap("consent given");

  // The model's write_to_file call is proposed in the diff editor and waits for Approve.
  await expectWebviewText(webview, "I will create the greeting file.", 30_000);
  const approve = webview.getByRole("button", { name: "Approve" });
  await approve.waitFor({ timeout: 20_000 });
  await page.locator(".tabs-container .tab", { hasText: `${FILE}: New file` }).first().waitFor({ timeout: 10_000 });
  assert.equal(existsSync(target), false, "nothing is written before the person approves");
  await approve.click();
  await expectWebviewText(webview, RESULT, 30_000);
  session.lap("completion shown");
  assert.equal(readFileSync(target, "utf8"), `${CONTENT}\n`, "the approved file lands on disk");
  assert.equal(await webview.getByText("Task Completed", { exact: true }).count(), 1, "the task completed");
  // Tokens are the model's own counts (countTokens); the subscription pays, so nothing is priced.
  const header = (await webview.locator(".task-header").innerText()).replace(/\s+/g, " ");
  assert.match(header, /Tokens ↑ [1-9][\d.]*k? ↓ [1-9]/, `the header counts tokens: ${header}`);
  assert.equal((await webview.locator(".task-header .cost").innerText()).trim(), "$0.00", "and costs nothing");
  t.log(`screenshot: ${await saveScreenshot(page, "41-vscode-language-model-done")}`);

  const requests = readFileSync(requestsFile, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(requests.length, 2, "one request for the write, one after it");
  const [first, second] = requests;
  assert.equal(first.extensionId, "tandem.tandem", "the request comes from Tandem");
  assert.equal(first.options.justification.startsWith("Tandem sends this model your task"), true, "the request carries the justification");
  // The API has no system role: Tandem's system prompt is the first user message.
  assert.equal(first.messages[0].role, 1, "the first message is a user message");
  assert.match(first.messages[0].content[0].value, /^You are Tandem, a careful software engineer/, "the first message is Tandem's system prompt");
  assert.equal(first.messages[1].role, 1);
  assert.match(JSON.stringify(first.messages[1].content), /Create a greeting file/, "then the task");
  const tools = first.options.tools.map((tool) => tool.name);
  for (const name of ["write_to_file", "read_file", "attempt_completion"]) assert.ok(tools.includes(name), `Tandem offers ${name} (offered: ${tools.join(", ")})`);
  const write = first.options.tools.find((tool) => tool.name === "write_to_file");
  assert.ok(write.description && write.inputSchema?.properties?.path, "each tool comes with its description and input schema");
  assert.equal(first.options.toolMode, 1, "toolMode is auto");
  // The second request replays the call and carries its result.
  const replayed = second.messages.flatMap((m) => m.content);
  assert.ok(replayed.some((part) => part.type === "tool_call" && part.callId === "lm-call-1" && part.name === "write_to_file"), "the write call is replayed");
  const result = replayed.find((part) => part.type === "tool_result" && part.callId === "lm-call-1");
  assert.ok(result, "the write's result answers its call");
  assert.match(JSON.stringify(result.content), new RegExp(FILE.replace(".", "\\.")), "the result reports the written file");
  t.log(`tools offered: ${tools.length}; second request: ${second.messages.length} messages`);

  // Where the refusal sends the person: the Accounts menu's Language Models entry, which now trusts Tandem.
  await page.locator(".activitybar [aria-label^='Accounts']").first().click();
  const menu = page.locator(".monaco-menu").first();
  await menu.getByText("Language Models (Tandem E2E Language Model)").hover({ timeout: 5_000 });
  const manage = page.getByRole("menuitem", { name: "Manage Trusted Extensions" }).first();
  await manage.hover({ timeout: 5_000 });
  await page.keyboard.press("Enter");
  const picker = page.locator(".quick-input-widget");
  await picker.waitFor({ timeout: 5_000 });
  const tandemRow = picker.locator(".monaco-list-row", { hasText: "Tandem" });
  await tandemRow.waitFor({ timeout: 5_000 });
  assert.equal(await tandemRow.getAttribute("aria-checked"), "true", "Manage Trusted Extensions lists Tandem as allowed");
  t.log(`screenshot (trusted): ${await saveScreenshot(page, "41-vscode-language-model-trusted")}`);
  await page.keyboard.press("Escape");
}
