/**
 * A window VS Code does not trust (Restricted Mode) runs none of the code a repository ships and
 * asks nothing about it: the workspace's TaskStart hook and its MCP server (each would leave a
 * mark) stay off, no trust question appears, the workspace's workflow is not offered in the `/`
 * menu, and the task still runs and completes.
 */
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "in Restricted Mode the workspace's hooks, MCP servers and workflows stay off without asking";

const RESULT = "Finished without the repository's code.";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function restrictedMode(t) {
  /** @type {{ hook: string, server: string }} */
  const marks = { hook: "", server: "" };
  const session = await t.startSession({
    restricted: true,
    files: { "README.md": "# an untrusted clone\n", ".clinerules/workflows/release.md": "RELEASE-WORKFLOW-MARKER\n" },
    tandem: { provider: "anthropic", modelId: "claude-sonnet-4-6", yolo: true },
    script: [{ text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` }],
    // The marks are absolute paths, so they are made here, where the workspace's place is known.
    beforeOpen: async (_page, dir) => {
      marks.hook = path.join(dir.workspace, "..", "hook-ran");
      marks.server = path.join(dir.workspace, "..", "server-ran");
      const hook = path.join(dir.workspace, ".clinerules/hooks/TaskStart");
      mkdirSync(path.dirname(hook), { recursive: true });
      writeFileSync(hook, `#!/bin/sh\ntouch '${marks.hook}'\necho '{"cancel": false}'\n`);
      chmodSync(hook, 0o755);
      mkdirSync(path.join(dir.workspace, ".tandem"), { recursive: true });
      const server = { command: "/bin/sh", args: ["-c", `touch '${marks.server}'; sleep 60`] };
      writeFileSync(path.join(dir.workspace, ".tandem/mcp.json"), `${JSON.stringify({ mcpServers: { "repo-server": server } }, null, 2)}\n`);
    },
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-ant-e2e-restricted");
  const input = webview.getByRole("textbox", { name: "Message" });

  // The workspace's workflow is not offered (the built-in commands are).
  await input.click();
  await input.pressSequentially("/", { delay: 30 });
  const menu = webview.getByRole("listbox", { name: "Slash commands" });
  await menu.waitFor({ timeout: 15_000 });
  const offered = (await menu.getByRole("option").allInnerTexts()).map((s) => s.replace(/\s+/g, " "));
  t.log(`/ menu offered in Restricted Mode: ${offered.join(" | ")}`);
  assert.ok(offered.length > 0, "the built-in commands are still offered");
  assert.ok(!offered.some((o) => o.includes("/release")), `the workspace's workflow is not offered: ${offered.join(" | ")}`);
  await input.press("Escape");
  await input.fill("Look around");
  await input.press("Enter");

  await expectWebviewText(webview, RESULT, 30_000);
  t.log(`completed: ${await saveScreenshot(page, "44-restricted-mode")}`);
  for (const button of ["Trust and run", "Trust and start"]) {
    assert.equal(await page.getByRole("button", { name: button }).count(), 0, `no "${button}" question was asked`);
  }
  assert.equal(existsSync(marks.hook), false, "the workspace's TaskStart hook did not run");
  assert.equal(existsSync(marks.server), false, "the workspace's MCP server did not start");
  const [first] = await session.model.requests();
  assert.ok(!JSON.stringify(first.body).includes("repo-server"), "the model was told of no workspace server");
}
