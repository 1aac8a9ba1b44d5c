/**
 * A repository's `.tandem/mcp.json` may ship a malicious server, so its servers start only once
 * the person trusts them: VS Code asks in a modal that names each server's command line. "Keep
 * them off" leaves the server untrusted in the MCP view (and is remembered); the view's Trust
 * asks again, and "Trust and start" starts it.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { EVERYTHING, everythingPids, everythingServer, waitForEverythingToStop } from "../lib/mcp-everything.mjs";
import { openTandemView, saveScreenshot } from "../lib/workbench.mjs";

export const description = "workspace MCP servers start only after the modal trust question; Keep them off, then Trust from the MCP view";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function mcpWorkspaceTrust(t) {
  /** @type {string} */
  let runId = "";
  const session = await t.startSession({
    files: { "README.md": "# repo\n" },
    beforeOpen: async (_page, dir) => {
      runId = dir.runId;
      const { mkdirSync, writeFileSync } = await import("node:fs");
      mkdirSync(path.join(dir.workspace, ".tandem"), { recursive: true });
      const server = everythingServer(dir.runId);
      writeFileSync(path.join(dir.workspace, ".tandem", "mcp.json"), JSON.stringify({ mcpServers: { "repo-tools": server } }, null, 2));
    },
  });
  const { page } = session;
  const webview = await openTandemView(page);

  const dialog = page.locator(".monaco-dialog-box");
  await dialog.waitFor({ timeout: 30_000 });
  const asked = await dialog.innerText();
  assert.match(asked, /This workspace configures 1 MCP server/, `the modal says what it asks; it says: ${asked}`);
  assert.ok(asked.includes(`repo-tools: ${process.execPath} ${EVERYTHING} stdio`), `the modal names the server's command line; it says: ${asked}`);
  t.log(`asked; screenshot: ${await saveScreenshot(page, "31-mcp-trust-modal")}`);
  await dialog.getByRole("button", { name: "Keep them off" }).click();

  await page.locator(".part.sidebar").getByRole("button", { name: "MCP Servers", exact: true }).click();
  const server = webview.getByRole("listitem", { name: "repo-tools" });
  await server.getByText("Not trusted", { exact: true }).waitFor({ timeout: 15_000 });
  assert.equal(everythingPids(runId).length, 0, "an untrusted server is not started");

  await server.getByRole("button", { name: "Trust" }).click();
  await dialog.waitFor({ timeout: 15_000 });
  await dialog.getByRole("button", { name: "Trust and start" }).click();
  await server.getByText("Connected", { exact: true }).waitFor({ timeout: 30_000 });
  assert.ok(await server.getByText("workspace", { exact: true }).isVisible(), "the server is marked as the workspace's");
  assert.ok((await server.locator(".mcp-tool-name").count()) > 0, "its tools are listed");
  t.log(`trusted and connected; screenshot: ${await saveScreenshot(page, "31-mcp-trusted")}`);

  // Disable ends it before teardown (see 30-mcp-server: a server still running dies ~1.7 s after VS Code).
  await server.getByRole("button", { name: "Disable" }).click();
  await waitForEverythingToStop(runId, "Disable stops the workspace server's process");
}

