/**
 * A workspace of two folders in the real VS Code: a `.code-workspace` of the workspace folder and
 * `web`. The model reads and edits in both (the second by its name, `web/page.txt`); the first
 * request lists both folders; "See new changes" shows the files of both; Restore files of the
 * checkpoint before the task puts both folders back.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { waitUntil } from "../lib/wait.mjs";
import { editorTabLabels, expectWebviewText, openTandemView, saveScreenshot, scrollChatTo, setApiKey } from "../lib/workbench.mjs";

export const description = "a two-folder .code-workspace: reads and edits in both folders, See new changes shows both, Restore files puts both back";

const call = (tool, params) => ({ text: `Next step.\n<${tool}>\n${Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join("\n")}\n</${tool}>` });
const done = (result) => call("attempt_completion", { result });

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function multiRoot(t) {
  const session = await t.startSession({
    files: { "app.txt": "main zero\n" },
    folders: { web: { "page.txt": "web zero\n" } },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: true },
    script: [
      call("read_file", { path: "web/page.txt" }),
      call("read_file", { path: "app.txt" }),
      call("write_to_file", { path: "app.txt", content: "main one" }),
      call("write_to_file", { path: "web/page.txt", content: "web one" }),
      done("Edited both folders."),
    ],
  });
  const { page } = session;
  const web = session.folders.web;
  const main = (file) => readFileSync(path.join(session.workspace, file), "utf8");
  const second = (file) => readFileSync(path.join(web, file), "utf8");
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-e2e-multi-root");
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Edit app.txt and the web folder's page.txt.");
  await input.press("Enter");
  await expectWebviewText(webview, "Edited both folders.", 60_000);
  assert.equal(main("app.txt"), "main one\n");
  assert.equal(second("page.txt"), "web one\n");
  session.lap("edited both folders");

  const requests = await session.model.requests();
  const first = JSON.stringify(requests[0].body);
  assert.ok(first.includes(`# Workspace files (workspace: ${session.workspace})`), "the first request lists the workspace folder");
  assert.ok(first.includes(`# Workspace files (web: ${web})`), "and the second, under its name");
  assert.ok(first.includes(`- web: ${web}`), "the prompt names the second folder");
  assert.ok(JSON.stringify(requests[1].body).includes("web zero"), "web/page.txt was read from the second folder");
  assert.ok(JSON.stringify(requests[2].body).includes("main zero"), "app.txt was read from the workspace folder");

  // Everything the task changed: both folders' files.
  await webview.getByRole("button", { name: "See new changes" }).click();
  await waitUntil(async () => (await page.locator(".monaco-workbench .editor-instance").getByText("page.txt").count()) > 0, "the diff of both folders, page.txt in it", 20_000);
  assert.ok((await page.locator(".monaco-workbench .editor-instance").getByText("app.txt").count()) > 0, "app.txt in the diff too");
  t.log(`tabs after See new changes: ${(await editorTabLabels(page)).join(" | ")}`);
  t.log(`screenshot: ${await saveScreenshot(page, "48-multi-root-changes")}`);

  // Restore files of the checkpoint before the task: both folders go back.
  const start = webview.getByRole("group", { name: "Checkpoint before the task" });
  await scrollChatTo(page, webview, start);
  await start.getByRole("button", { name: "Restore", exact: true }).click();
  await webview.getByRole("group", { name: "Restore choices" }).getByRole("button", { name: "Restore files", exact: true }).click();
  await webview.getByRole("group", { name: "Restore files?" }).getByRole("button", { name: "Restore files", exact: true }).click();
  await waitUntil(async () => main("app.txt") === "main zero\n" && second("page.txt") === "web zero\n", "both folders back as the task found them", 20_000);
  await expectWebviewText(webview, "Edited both folders.", 5_000);
  t.log(`screenshot: ${await saveScreenshot(page, "48-multi-root")}`);
}
