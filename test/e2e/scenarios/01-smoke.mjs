/**
 * The first minute of a new user: Tandem installs from its .vsix into a fresh VS Code, its icon
 * shows in the activity bar, clicking it loads the webview, the API key goes in through
 * "Tandem: Set API Key", and a first prompt reaches the (scripted) model with that key.
 */
import assert from "node:assert/strict";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey, tandemTab, waitForNotification } from "../lib/workbench.mjs";

export const description = "Tandem's icon opens its webview; a key set in the palette reaches the model";

const API_KEY = "sk-e2e-smoke-4d1f";
const ANSWER = "Hello from the scripted model.";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function smoke(t) {
  const session = await t.startSession({
    files: { "README.md": "# a fresh workspace\n" },
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
}
