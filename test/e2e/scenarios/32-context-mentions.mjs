/**
 * What the model knows of the editor: two files opened in VS Code appear in the first request's
 * environment details, and a file picked from the chat input's @ menu reaches the model with its
 * content while the person's text keeps the mention as typed.
 */
import assert from "node:assert/strict";
import { expectWebviewText, openFileInEditor, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "open files are listed in the environment details; a file picked from the @ menu reaches the model with its content";

const ALPHA = "export const alpha = 'ALPHA-MARKER-41';\n";
const RESULT = "I have seen both files.";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function contextMentions(t) {
  const session = await t.startSession({
    files: { "README.md": "# context\n", "src/alpha.ts": ALPHA, "src/beta.ts": "export const beta = 2;\n" },
    tandem: { provider: "anthropic", modelId: "claude-sonnet-4-6", yolo: false },
    script: [{ text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` }],
  });
  const { page } = session;
  await openFileInEditor(page, "alpha.ts");
  await openFileInEditor(page, "beta.ts");
  session.lap("two files open");
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-ant-e2e-context");

  const input = webview.getByRole("textbox", { name: "Message" });
  await input.click();
  await input.pressSequentially("Explain @alp", { delay: 30 });
  const menu = webview.getByRole("listbox", { name: /mention/i });
  await menu.waitFor({ timeout: 15_000 });
  const option = menu.getByRole("option", { name: /src\/alpha\.ts/ });
  await option.waitFor({ timeout: 15_000 });
  t.log(`@ menu offered: ${(await menu.getByRole("option").allInnerTexts()).map((s) => s.replace(/\s+/g, " ")).join(" | ")}; screenshot: ${await saveScreenshot(page, "32-mention-menu")}`);
  // The keyboard, as a person picks: down to the file's row, then Enter.
  for (let i = 0; i < 10 && (await option.getAttribute("aria-selected")) !== "true"; i++) await input.press("ArrowDown");
  assert.equal(await option.getAttribute("aria-selected"), "true", "the arrow keys reach the file's row");
  await input.press("Enter");
  await menu.waitFor({ state: "hidden", timeout: 5_000 });
  const typed = await input.inputValue();
  assert.match(typed, /^Explain @\/src\/alpha\.ts\s*$/, `picking the file puts its path in the input; it holds: ${typed}`);
  await input.press("Enter");
  session.lap("task sent");
  await expectWebviewText(webview, RESULT, 30_000);
  await expectWebviewText(webview, "Explain @/src/alpha.ts");

  const [first] = await session.model.requests();
  const lastTurn = JSON.stringify(first.body.messages.at(-1));
  assert.ok(lastTurn.includes("ALPHA-MARKER-41"), `the mentioned file's content reaches the model; the turn: ${lastTurn.slice(0, 600)}`);
  const details = /<environment_details>([\s\S]*?)<\/environment_details>/.exec(JSON.parse(lastTurn).content.map((b) => b.text ?? "").join("\n"))?.[1] ?? "";
  assert.ok(details.includes("src/alpha.ts") && details.includes("src/beta.ts"), `the environment details list both open files; they say: ${details.slice(0, 600)}`);
  t.log("the first request carries the open files and the mentioned file's content");
}
