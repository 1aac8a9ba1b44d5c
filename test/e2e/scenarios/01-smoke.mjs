/**
 * The first minute of a new user: Tandem installs from its .vsix into a fresh VS Code, its icon
 * shows in the activity bar, clicking it loads the webview, the API key goes in through
 * "Tandem: Set API Key", and a first prompt reaches the (scripted) model with that key. A temp file
 * a killed write left in the workspace is gone once Tandem has started.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey, tandemTab, waitForNotification } from "../lib/workbench.mjs";

export const description = "Tandem's icon opens its webview; a key set in the palette reaches the model";

const API_KEY = "sk-e2e-smoke-4d1f";
const ANSWER = "Hello from the scripted model.";
/** What an atomic write killed mid-way leaves (its writer, pid 2147483646, is long gone); the next start removes it. */
const LEFTOVER = "src/.app.ts.tandem-2147483646-0badc0de.tmp";
/** A person's own temp file: never Tandem's to remove. */
const OWN_TMP = ".notes.tmp";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function smoke(t) {
  const session = await t.startSession({
    files: { "README.md": "# a fresh workspace\n", [LEFTOVER]: "half a file", [OWN_TMP]: "the person's own" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: true },
    script: [{ text: `${ANSWER}\n<attempt_completion>\n<result>Said hello.</result>\n</attempt_completion>` }],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  session.lap("Tandem view shown");
  assert.equal(await tandemTab(page).getAttribute("aria-selected"), "true", "the Tandem tab is the selected one after the click");
  const text = (await webview.locator("body").innerText()).trim();
  assert.ok(text.length > 0, "the Tandem webview shows some text");
  t.log(`webview text: ${JSON.stringify(text.slice(0, 60))}`);

  await setApiKey(page, API_KEY);
  t.log(`notification: ${await waitForNotification(page, /API key/)}`);

  const input = webview.getByRole("textbox").first();
  await input.fill("Say hello");
  await input.press("Enter");
  await expectWebviewText(webview, ANSWER, 20_000);
  session.lap("answer shown");
  const [request] = await session.model.requests();
  assert.ok(request, "the model received a request");
  assert.equal(request.headers.authorization, `Bearer ${API_KEY}`, "the key from the input box is what the model sees");
  t.log(`screenshot: ${await saveScreenshot(page, "01-smoke")}`);
  // Removed at activation, in the background: it has had the whole scenario to do it.
  assert.equal(existsSync(path.join(session.workspace, LEFTOVER)), false, "the temp file a killed write left is gone");
  assert.equal(existsSync(path.join(session.workspace, OWN_TMP)), true, "the person's own .tmp file stays");
}
