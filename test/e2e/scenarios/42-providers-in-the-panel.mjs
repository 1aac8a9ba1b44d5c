/**
 * A person switches providers in the installed extension's settings view and runs a task: Ollama
 * is chosen, its models are read from the server (the scripted model server plays Ollama's
 * /api/tags and /api/show), one is picked by name, Test connection says who answered, and the task
 * goes to Ollama's OpenAI-compatible API with that model and its window. A Gemini key pasted in
 * answers a Test connection (its SDK loads with that first request), and so does Vertex with a
 * project, signed by Application Default Credentials (a metadata server). Then Bedrock's own fields
 * show, with no field for a key it does not need, and a Test connection that fails says why in
 * words. The settings view with these parts has no serious or critical axe violation.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import path from "node:path";
import { formatViolations, webviewViolations } from "../lib/axe.mjs";
import { savedSetting } from "../lib/settings.mjs";
import { waitUntil } from "../lib/wait.mjs";
import { expectWebviewText, openTandemView, runCommand, saveScreenshot } from "../lib/workbench.mjs";

export const description = "Ollama chosen in the settings view: its model list, Test connection, a task on the picked model; Gemini and Vertex answer a test; Bedrock's fields and a failure in words";

const MODELS = [
  { id: "qwen3-coder:30b", contextLength: 262_144, tools: true },
  { id: "llama3.2:3b", contextLength: 131_072 },
];
const WRITE = "<write_to_file>\n<path>from-ollama.txt</path>\n<content>written through Ollama\n</content>\n</write_to_file>";
const DONE = "<attempt_completion>\n<result>OLLAMA-TASK-DONE</result>\n</attempt_completion>";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function providersInThePanel(t) {
  const session = await t.startSession({
    files: { "README.md": "# providers\n" },
    tandem: { provider: "anthropic", yolo: true },
    script: [{ text: "OK" }, { text: WRITE }, { text: DONE }, { text: "OK" }, { text: "OK" }],
    // Vertex signs with Application Default Credentials: the scripted server also plays a Google
    // Cloud machine's metadata server, and an empty gcloud folder keeps any real login out.
    extensionEnv: (modelUrl, dir) => ({
      GCE_METADATA_HOST: new URL(modelUrl ?? "http://127.0.0.1:9").host,
      METADATA_SERVER_DETECTION: "assume-present",
      CLOUDSDK_CONFIG: mkdtempSync(path.join(dir.root, "gcloud-")),
    }),
  });
  const { page } = session;
  await session.model.setListedModels(MODELS);
  const webview = await openTandemView(page);
  const choose = async (label, option) => {
    const select = webview.locator(`vscode-single-select[aria-label="${label}"]`);
    await select.click();
    await select.locator("li.option", { hasText: option }).first().click();
  };
  /**
   * Types into a text field's own input (inside its shadow root) and commits it with Enter, as a
   * person does, once the field shows `before` (a provider switch empties it when its settings arrive).
   * The label is matched from its start: a required field's "(required)" goes once it is filled.
   */
  const commitText = async (label, text, before = "") => {
    const field = webview.locator(`vscode-textfield[aria-label^="${label}"] input`);
    await waitUntil(async () => (await field.inputValue()) === before, `the ${label} field to show "${before}"`);
    await field.fill(text);
    await field.press("Enter");
    await waitUntil(async () => (await field.inputValue()) === text, `the ${label} field to keep "${text}"`);
  };

  await runCommand(page, "Tandem: Open Settings");
  await webview.getByRole("heading", { name: "Settings" }).waitFor({ timeout: 10_000 });
  await choose("Provider", "Ollama");
  // Anthropic's endpoint does not follow to Ollama: the person names the server, and its list is read.
  await commitText("Base URL", session.model.url);
  await webview.getByRole("button", { name: "Refresh models" }).click();
  await expectWebviewText(webview, "2 models from the Ollama server", 15_000);
  assert.equal(await webview.locator('input[aria-label="API key"]').count(), 0, "Ollama asks for no key");
  await choose("Known models", "qwen3-coder:30b");
  // The picker describes the model with the window Ollama reported.
  await expectWebviewText(webview, "262.1k context", 10_000);
  assert.equal(await savedSetting(session.dir.userSettings, "tandem.modelId", "qwen3-coder:30b"), "qwen3-coder:30b", "the picked model is saved");
  assert.equal(await savedSetting(session.dir.userSettings, "tandem.apiProvider", "ollama"), "ollama", "the provider is saved");

  await webview.getByRole("button", { name: "Test connection" }).click();
  await expectWebviewText(webview, "Connected: qwen3-coder:30b answered.", 15_000);
  const violations = await webviewViolations(page);
  assert.equal(violations.length, 0, `the settings view with the model list and the test's outcome: ${formatViolations(violations)}`);
  t.log(`screenshot (Ollama settings): ${await saveScreenshot(page, "42-ollama-settings")}`);
  session.lap("Ollama set up in the settings view");

  await webview.getByRole("button", { name: "Done" }).click();
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Write from-ollama.txt");
  await input.press("Enter");
  await expectWebviewText(webview, "OLLAMA-TASK-DONE", 30_000);
  const file = path.join(session.workspace, "from-ollama.txt");
  assert.ok(existsSync(file), "the task wrote its file");
  assert.equal(readFileSync(file, "utf8"), "written through Ollama\n");
  const requests = (await session.model.requests()).filter((r) => r.turnIndex >= 0);
  assert.deepEqual(
    requests.map((r) => [r.protocol, r.path, r.body.model]),
    [0, 1, 2].map(() => ["openai", "/v1/chat/completions", "qwen3-coder:30b"]),
    "the connection test and both rounds went to Ollama's OpenAI-compatible API with the picked model",
  );
  session.lap("task ran on Ollama");

  // Gemini: a key pasted in, and its SDK (loaded with the first request) answers through core.js.
  // Ollama's model and server stay Ollama's: Gemini starts from its own default.
  await runCommand(page, "Tandem: Open Settings");
  await choose("Provider", "Google Gemini");
  await expectWebviewText(webview, "gemini-4-neon is Google Gemini's default model", 10_000);
  await commitText("Base URL", session.model.url);
  const keyInput = webview.locator('input[aria-label="API key"]');
  await keyInput.fill("gemini-e2e-key");
  await webview.locator("vscode-button", { hasText: /^\s*Save key\s*$/ }).click();
  await expectWebviewText(webview, "A key is stored for Google Gemini", 10_000);
  await webview.getByRole("button", { name: "Test connection" }).click();
  await expectWebviewText(webview, "Connected: gemini-4-neon answered.", 15_000);
  const gemini = (await session.model.requests()).at(-1);
  assert.deepEqual([gemini?.protocol, gemini?.headers["x-goog-api-key"]], ["gemini", "gemini-e2e-key"], "the test went to Gemini's API with the saved key");
  await webview.getByRole("button", { name: "Done" }).click();
  session.lap("Gemini answered the connection test");

  // Vertex: a project and the endpoint, no key; Claude answers, signed by the metadata server's token.
  await runCommand(page, "Tandem: Open Settings");
  await choose("Provider", "Google Vertex AI");
  await webview.locator('vscode-textfield[aria-label="Google Cloud project (required)"]').waitFor({ timeout: 10_000 });
  assert.equal(await webview.locator('input[aria-label="API key"]').count(), 0, "Vertex asks for no key");
  assert.equal(await webview.getByText("Connected: gemini-4-neon answered.").count(), 0, "Gemini's test result is not shown as Vertex's");
  await commitText("Google Cloud project", "e2e-project");
  await commitText("Base URL", `${session.model.url}/v1`);
  await webview.getByRole("button", { name: "Test connection" }).click();
  await expectWebviewText(webview, "Connected: claude-sonnet-5-5 answered.", 15_000);
  const vertex = (await session.model.requests()).at(-1);
  assert.equal(vertex?.protocol, "vertex-anthropic", "the test went to Vertex's Claude path");
  assert.match(vertex?.path ?? "", /^\/v1\/projects\/e2e-project\/locations\/global\/publishers\/anthropic\/models\/claude-sonnet-5-5:streamRawPredict$/);
  assert.equal(vertex?.headers.authorization, "Bearer ya29.scripted-metadata-token", "signed with the metadata server's token");
  await webview.getByRole("button", { name: "Done" }).click();
  session.lap("Vertex answered the connection test");

  // Bedrock: its own fields, no key field it needs, and a failure that says what to do.
  await runCommand(page, "Tandem: Open Settings");
  await choose("Provider", "AWS Bedrock");
  for (const label of ["AWS region", "AWS profile", "Base URL"]) await webview.locator(`vscode-textfield[aria-label="${label}"]`).waitFor({ timeout: 10_000 });
  await expectWebviewText(webview, "No key is stored for AWS Bedrock", 10_000);
  await commitText("AWS profile", "no-such-profile");
  assert.equal(await savedSetting(session.dir.userSettings, "tandem.awsProfile", "no-such-profile"), "no-such-profile", "the profile is saved");
  await webview.getByRole("button", { name: "Test connection" }).click();
  const result = webview.locator(".connection-result.failed");
  await result.waitFor({ timeout: 20_000 });
  const said = await result.innerText();
  t.log(`Bedrock's Test connection said: ${said}`);
  assert.match(said, /^AWS Bedrock: .*no-such-profile/, "the failure names the profile that could not be used");
  t.log(`screenshot (Bedrock settings): ${await saveScreenshot(page, "42-bedrock-settings")}`);
}

