/**
 * What an MCP approval shows (issue 26), with server-everything over stdio: the approval of a
 * use_mcp_tool call names the server and the tool (the tool's description on hover) and shows the
 * arguments as formatted JSON under "Arguments"; once it ran, a row of its own shows what the tool
 * returned — echo's text, get-tiny-image's PNG as a real <img> with alt text, get-resource-links'
 * links, and a tool's own error (get-resource-links with a count it refuses) said calmly, not as a
 * red error. access_mcp_resource's approval names the server and the URI, and its row then shows
 * the resource's contents. The model's results are unchanged: echo's text reaches the next request.
 * Then, in Plan mode, a call of a tool that is not read-only is refused: its row names the server
 * and the tool as the approval would, with the arguments and a calm note, and is no error.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { everythingServer, waitForEverythingToStop } from "../lib/mcp-everything.mjs";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "an MCP approval names server and tool with formatted arguments, and the result (text, image, links, a tool's error, a resource) is shown after the call";

const ECHOED = "hello-from-34";
const URI = "demo://resource/dynamic/text/1";
const DONE = "MCP-APPROVALS-DONE";
const PLANNED = "PLAN-34: no more logging changes.";

const useMcp = (tool, args) => ({ text: `<use_mcp_tool>\n<server_name>everything</server_name>\n<tool_name>${tool}</tool_name>\n<arguments>${args}</arguments>\n</use_mcp_tool>` });

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function mcpApproval(t) {
  const session = await t.startSession({
    files: { "README.md": "# mcp approval\n" },
    tandem: { provider: "anthropic", modelId: "claude-sonnet-4-6", yolo: false },
    script: [
      useMcp("echo", `{"message": "${ECHOED}"}`),
      // Listed in the server's autoApprove below: they run unasked, and their results still show.
      useMcp("get-tiny-image", "{}"),
      useMcp("get-resource-links", '{"count": 2}'),
      useMcp("get-resource-links", '{"count": 99}'),
      { text: `<access_mcp_resource>\n<server_name>everything</server_name>\n<uri>${URI}</uri>\n</access_mcp_resource>` },
      { text: `<attempt_completion>\n<result>${DONE}</result>\n</attempt_completion>` },
      // After the person's reply in Plan mode: a tool without readOnlyHint, which Plan mode refuses.
      useMcp("toggle-simulated-logging", '{"level": "debug"}'),
      { text: `<plan_mode_respond>\n<response>${PLANNED}</response>\n</plan_mode_respond>` },
    ],
    beforeOpen: async (_page, dir) => {
      const storage = path.join(dir.userData, "User", "globalStorage", "tandem.tandem");
      mkdirSync(storage, { recursive: true });
      const everything = everythingServer(dir.runId, { autoApprove: ["get-tiny-image", "get-resource-links"] });
      writeFileSync(path.join(storage, "tandem_mcp_settings.json"), JSON.stringify({ mcpServers: { everything } }, null, 2));
    },
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-ant-e2e-mcp-approval");
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Try the everything server.");
  await input.press("Enter");

  // The approval of echo: server, tool, description on hover, arguments as JSON under "Arguments".
  const echoAsk = webview.locator('[data-row="ask:tool"]').filter({ has: webview.locator(".mcp-row-tool", { hasText: "echo" }) });
  await echoAsk.waitFor({ timeout: 45_000 });
  const title = (await echoAsk.locator(".row-title").innerText()).replace(/\s+/g, " ");
  assert.equal(title, "Tandem wants to use echo from the MCP server everything", `the approval names the tool and the server; it says: ${title}`);
  assert.equal(await echoAsk.locator(".mcp-row-tool").getAttribute("title"), "Echoes back the input string", "the tool's description from the server's list is on hover");
  const args = echoAsk.locator(".mcp-row-arguments");
  assert.equal(await args.evaluate((el) => /** @type {any} */ (el).heading), "Arguments", "the arguments sit under a heading Arguments");
  assert.equal(await args.evaluate((el) => /** @type {any} */ (el).open), true, "open while the question waits");
  assert.equal(await args.locator("pre").innerText(), `{\n  "message": "${ECHOED}"\n}`, "the arguments as formatted JSON");
  assert.ok(!(await echoAsk.innerText()).includes("use_mcp_tool"), "the row no longer speaks of use_mcp_tool");
  t.log(`approval row: "${title}"; screenshot: ${await saveScreenshot(page, "34-mcp-approval-ask")}`);
  await webview.getByRole("button", { name: "Approve" }).click();
  session.lap("echo approved");

  const results = webview.locator('[data-row="say:tool"]').filter({ has: webview.locator(".mcp-row-result") });
  const echoResult = results.filter({ has: webview.locator(".mcp-row-tool", { hasText: "echo" }) });
  // One wait for the whole row: the task goes on at once (the next call is auto-approved), and the
  // chat list unmounts a row that scrolls away, so a second look at it later may find nothing.
  await echoResult
    .filter({ has: webview.locator(".mcp-row-text", { hasText: `Echo: ${ECHOED}` }) })
    .filter({ has: webview.locator(".row-title", { hasText: /^\s*Result\s+of\s+echo\s+from\s+everything\s*$/ }) })
    .waitFor({ timeout: 30_000 });

  // The resource's approval: the server and the URI.
  const resourceAsk = webview.locator('[data-row="ask:tool"]').filter({ has: webview.locator(".mcp-row-uri") });
  await resourceAsk.waitFor({ timeout: 45_000 });
  assert.equal((await resourceAsk.locator(".row-title").innerText()).replace(/\s+/g, " "), "Tandem wants to read a resource of the MCP server everything");
  assert.equal(await resourceAsk.locator(".mcp-row-uri code").innerText(), URI, "the approval shows the URI");

  // Meanwhile the auto-approved calls showed their results: the image really renders, the links are listed, the refusal is calm.
  const image = results.locator("img.mcp-row-image");
  await image.waitFor({ timeout: 10_000 });
  assert.match((await image.getAttribute("src")) ?? "", /^data:image\/png;base64,iVBOR/, "the image as a data URL");
  assert.equal(await image.getAttribute("alt"), "Image 2 returned by get-tiny-image (image/png)", "the image has alt text");
  const size = await image.evaluate((img) => /** @type {HTMLImageElement} */ (img).complete && /** @type {HTMLImageElement} */ (img).naturalWidth);
  assert.ok(Number(size) > 0, `the image loads in the webview (its CSP allows data: images); naturalWidth ${size}`);
  assert.equal(await results.locator(".mcp-row-link").count(), 2, "both resource links are shown");
  const errorResult = results.filter({ hasText: "reported an error" });
  await errorResult.waitFor({ timeout: 10_000 });
  assert.equal((await errorResult.locator(".row-title").innerText()).replace(/\s+/g, " "), "get-resource-links on everything reported an error");
  assert.match(await errorResult.locator(".mcp-row-text").innerText(), /Too big|too_big|<=10|10/i, "the tool's own error text is shown");
  assert.equal(await webview.locator(".row.tone-error").count(), 0, "a tool's error is not a red error row");
  t.log(`results shown; screenshot: ${await saveScreenshot(page, "34-mcp-approval-results")}`);

  await webview.getByRole("button", { name: "Approve" }).click();
  const contents = results.filter({ has: webview.locator(".mcp-row-resource") });
  await contents.locator(".mcp-row-resource pre", { hasText: "Resource 1: This is a plaintext resource" }).waitFor({ timeout: 30_000 });
  assert.equal((await contents.locator(".row-title").innerText()).replace(/\s+/g, " "), `Contents of the resource ${URI} from everything`);
  await expectWebviewText(webview, DONE, 30_000);
  t.log(`resource contents shown; screenshot: ${await saveScreenshot(page, "34-mcp-approval-resource")}`);

  // The model's copy is as before: echo's text reached the next request.
  const requests = await session.model.requests();
  assert.ok(JSON.stringify(requests[1].body.messages.at(-1)).includes(`Echo: ${ECHOED}`), "the tool's result reaches the model");

  // Plan mode refuses a tool that is not read-only: the row says which, calmly.
  await webview.locator('.mode-option:text-is("Plan")').click();
  await webview.locator('.mode-option.active:text-is("Plan")').waitFor({ timeout: 10_000 });
  await input.fill("Plan what to change next.");
  await input.press("Enter");
  const refused = webview.locator('[data-row="say:tool"]').filter({ has: webview.locator(".refused-note") });
  await refused.waitFor({ timeout: 30_000 });
  assert.equal(
    (await refused.locator(".row-title").innerText()).replace(/\s+/g, " ").trim(),
    "Tandem wanted to use toggle-simulated-logging from the MCP server everything (not run in Plan mode)",
  );
  assert.match(await refused.locator(".refused-note").innerText(), /Plan mode/, "a note for the person");
  // Collapsed once the call is over: its text is there, behind the heading.
  assert.equal(await refused.locator(".mcp-row-arguments pre").textContent(), '{\n  "level": "debug"\n}', "the arguments it would have had");
  assert.ok((await refused.getAttribute("class"))?.includes("tone-muted"), "muted, not an error");
  assert.equal(await webview.locator(".row.tone-error").count(), 0, "no red error row");
  await expectWebviewText(webview, PLANNED, 30_000);
  const planRequests = await session.model.requests();
  assert.match(JSON.stringify(planRequests.at(-1).body.messages.at(-1)), /use_mcp_tool is not available in Plan mode/, "the model still reads why");
  t.log(`refused in Plan mode; screenshot: ${await saveScreenshot(page, "34-mcp-approval-plan-refused")}`);

  // As in 30-mcp-server: Disable ends the server's process, which would otherwise outlive the harness's leftover check by ~1.7 s.
  await page.locator(".part.sidebar").getByRole("button", { name: "MCP Servers", exact: true }).click();
  await webview.getByRole("listitem", { name: "everything" }).getByRole("button", { name: "Disable" }).click();
  await waitForEverythingToStop(session.dir.runId);
}


