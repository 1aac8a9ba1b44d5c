/**
 * A stdio MCP server configured in Tandem's global file (server-everything, from this checkout's
 * node_modules, run with this Node) shows in the panel's MCP view — opened from the server icon in
 * the view's title — connected with its tools; Disable and Enable act on it and on the file, and
 * the auto-approve box of a tool is written to the file; the model calls one of its tools
 * (use_mcp_tool), the person approves, and the result reaches the next request. The server must
 * not outlive VS Code.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { everythingPids, everythingServer, waitForEverythingToStop } from "../lib/mcp-everything.mjs";
import { waitUntil } from "../lib/wait.mjs";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "a configured stdio MCP server shows connected with its tools in the MCP view; disable, enable and auto-approve act on it";

const ECHOED = "hello-from-the-e2e-run";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function mcpServer(t) {
  /** @type {string | undefined} */
  let configFile;
  const session = await t.startSession({
    files: { "README.md": "# mcp\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: false },
    script: [
      { text: `I'll ask the echo tool.\n<use_mcp_tool>\n<server_name>everything</server_name>\n<tool_name>echo</tool_name>\n<arguments>{"message": "${ECHOED}"}</arguments>\n</use_mcp_tool>` },
      { text: "<attempt_completion>\n<result>The server echoed.</result>\n</attempt_completion>" },
    ],
    // Before the workbench loads, so the extension host finds the file when the session starts.
    beforeOpen: async (_page, dir) => {
      const storage = path.join(dir.userData, "User", "globalStorage", "tandem.tandem");
      mkdirSync(storage, { recursive: true });
      configFile = path.join(storage, "tandem_mcp_settings.json");
      // The hub gives a server only a safe environment: the run's marker, passed in `env`, lets the
      // harness's leftover check see the server, so one that outlives VS Code fails the scenario.
      writeFileSync(configFile, JSON.stringify({ mcpServers: { everything: everythingServer(dir.runId) } }, null, 2));
    },
  });
  const { page } = session;
  const readConfig = () => JSON.parse(readFileSync(/** @type {string} */ (configFile), "utf8")).mcpServers.everything;
  const webview = await openTandemView(page);

  // The server icon in the view's title bar (like History and Settings).
  await page.locator(".part.sidebar").getByRole("button", { name: "MCP Servers", exact: true }).click();
  await webview.getByRole("heading", { name: "MCP Servers" }).waitFor({ timeout: 15_000 });
  const server = webview.getByRole("listitem", { name: "everything" });
  await server.getByText("Connected", { exact: true }).waitFor({ timeout: 30_000 });
  session.lap("server connected in the MCP view");
  const echo = server.getByRole("checkbox", { name: "Auto-approve echo" });
  await echo.waitFor();
  const tools = await server.locator(".mcp-tool-name").allInnerTexts();
  assert.ok(tools.length >= 5 && tools.includes("echo"), `its tools are listed; shown: ${tools.join(", ")}`);
  t.log(`${tools.length} tools listed; screenshot: ${await saveScreenshot(page, "30-mcp-server")}`);

  await server.getByRole("button", { name: "Disable" }).click();
  await server.getByText("Disabled", { exact: true }).waitFor({ timeout: 10_000 });
  assert.equal(readConfig().disabled, true, "Disable writes disabled: true to the file");
  assert.equal(await server.locator(".mcp-tool-name").count(), 0, "a disabled server lists no tools");
  await server.getByRole("button", { name: "Enable" }).click();
  await server.getByText("Connected", { exact: true }).waitFor({ timeout: 30_000 });
  assert.equal(readConfig().disabled, undefined, "Enable removes disabled from the file");
  session.lap("disabled and enabled");

  // The box shows what the host says (the file, through the hub): a click asks, the state comes back.
  const box = server.getByRole("checkbox", { name: "Auto-approve echo" });
  await box.click();
  await waitUntil(() => (readConfig().autoApprove ?? []).includes("echo"), "the auto-approve box writes echo into the server's autoApprove");
  await webview.locator('input[aria-label="Auto-approve echo"]:checked').waitFor({ timeout: 10_000 });
  await box.click();
  await waitUntil(() => !(readConfig().autoApprove ?? []).includes("echo"), "unchecking takes echo out again");
  await webview.locator('input[aria-label="Auto-approve echo"]:not(:checked)').waitFor({ timeout: 10_000 });

  await modelCallsTheTool(t, session, webview);

  // Disable ends the server's process (and the one the Enable above replaced is gone too). Left
  // running, it would die about 1.7 s after code-server stops (measured: the launcher's pipe
  // closes with the extension host), later than the harness's leftover check looks.
  assert.ok(everythingPids(session.dir.runId).length > 0, "the server runs as a process of this run");
  await webview.getByRole("listitem", { name: "everything" }).getByRole("button", { name: "Disable" }).click();
  await waitForEverythingToStop(session.dir.runId);
}

/**
 * The model calls the tool; the person approves; the result reaches the next request.
 * @param {import("../lib/harness.mjs").Harness} t
 * @param {import("../lib/harness.mjs").Session} session
 * @param {import("playwright-core").FrameLocator} webview
 */
async function modelCallsTheTool(t, session, webview) {
  const { page } = session;
  await webview.getByRole("button", { name: "Done" }).click();
  await setApiKey(page, "sk-e2e-mcp");
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Echo something through the MCP server.");
  await input.press("Enter");
  const approve = webview.getByRole("button", { name: /^(Approve|Allow|Run)/ });
  await approve.first().waitFor({ timeout: 30_000 });
  await approve.first().click();
  await expectWebviewText(webview, "The server echoed.", 30_000);
  const requests = await session.model.requests();
  assert.equal(requests.length, 2, "one request for the tool call, one with its result");
  const lastTurn = JSON.stringify(requests[1].body.messages.at(-1));
  assert.ok(lastTurn.includes(`Echo: ${ECHOED}`), `the tool's result reaches the model; the last turn: ${lastTurn.slice(0, 400)}`);
  t.log("the model called echo through use_mcp_tool and got its result");
  await page.locator(".part.sidebar").getByRole("button", { name: "MCP Servers", exact: true }).click();
}


