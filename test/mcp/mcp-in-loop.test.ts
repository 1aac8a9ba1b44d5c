/**
 * MCP in the loop, through the real Controller and Task, the real SDKs and the scripted model, with
 * real servers (server-everything from npm, the hub tests' fixtures): what the model receives in
 * its next request after use_mcp_tool / access_mcp_resource / a namespaced native call, when it is
 * asked, the bounded wait for servers still connecting, and servers that hang, crash or get cancelled.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest, ScriptTurn } from "../support/script";
import { startHarness, type Harness, type HarnessOptions } from "../support/task-harness";
import { fixture, serverScript, stdio } from "./support";
import { DEFAULT_AUTO_APPROVAL } from "../../src/shared/settings";
import type { McpResultView } from "../../src/shared/messages";

const EVERYTHING = stdio(serverScript("server-everything"), "stdio");
const DONE: ScriptTurn = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };
const MCP_ON = { autoApproval: { ...DEFAULT_AUTO_APPROVAL, useMcp: true } };

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

function useMcp(server: string, tool: string, args: string): ScriptTurn {
  return { text: `<use_mcp_tool>\n<server_name>${server}</server_name>\n<tool_name>${tool}</tool_name>\n<arguments>${args}</arguments>\n</use_mcp_tool>` };
}

async function start(options: Partial<HarnessOptions> & Pick<HarnessOptions, "turns">): Promise<Harness> {
  harness = await startHarness({ provider: "anthropic", answer: () => ({ type: "yes" }), mcp: { servers: { everything: EVERYTHING } }, ...options });
  return harness;
}

/** The user content of request `i` (the results of the round before), as JSON text. */
function lastUserContent(request: RecordedRequest | undefined): string {
  return JSON.stringify(((request?.body.messages ?? []) as unknown[]).at(-1));
}

/** What the panel shows of each MCP call's answer, in order (the rows said after the calls ran). */
function resultRows(h: Harness): McpResultView[] {
  return h.messages.flatMap((m) => (m.type === "say" && m.tool?.mcp?.result ? [m.tool.mcp.result] : []));
}

/** Resolves once the hub reports `name` connected (the task itself waits at most `waitMs`). */
async function connected(h: Harness, name: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (h.hub?.servers().find((s) => s.name === name)?.state !== "connected") {
    if (Date.now() > deadline) throw new Error(`${name} did not connect in 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function systemText(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body.system ?? request?.body.instructions ?? "");
}

/** The system prompt as sent (Anthropic: text blocks), for its size. */
function systemPrompt(request: RecordedRequest | undefined): string {
  const system = request?.body.system as string | { text: string }[] | undefined;
  return typeof system === "string" ? system : (system ?? []).map((b) => b.text).join("");
}

describe("use_mcp_tool in the loop", () => {
  it("calls echo and get-sum; the results reach the model's next requests, and the prompt lists the tools", async () => {
    const h = await start({ settings: MCP_ON, turns: [useMcp("everything", "echo", '{"message": "hello from the model"}'), useMcp("everything", "get-sum", '{"a": 2, "b": 40}'), DONE] });
    expect(await h.run("Use the server")).toBe("completed");
    expect(h.asks.filter((a) => a.ask === "tool")).toHaveLength(0);
    const [first, second, third] = h.server.requests;
    expect(systemText(first)).toContain("get-sum(a: number, b: number)");
    expect(systemText(first)).toContain("## use_mcp_tool");
    expect(lastUserContent(second)).toContain("Echo: hello from the model");
    expect(lastUserContent(third)).toContain("42");
    const [approved, result] = h.messages.filter((m) => m.type === "say" && m.say === "tool" && m.tool?.tool === "use_mcp_tool");
    expect(approved?.tool).toMatchObject({ mcp: { server: "everything", tool: "echo", description: "Echoes back the input string" }, content: '{\n  "message": "hello from the model"\n}' });
    // After the call, a row of its own shows what the tool returned (for the person; the model's copy is above).
    expect(result?.tool?.mcp).toEqual({ server: "everything", tool: "echo", description: "Echoes back the input string", result: { parts: [{ type: "text", text: "Echo: hello from the model" }] } });
  });

  it("asks unless useMcp, the server's autoApprove list or YOLO allows it", async () => {
    const turns = () => [useMcp("everything", "echo", '{"message": "x"}'), DONE];
    let h = await start({ turns: turns() });
    expect(await h.run("ask")).toBe("completed");
    expect(h.asks.filter((a) => a.ask === "tool").map((a) => a.tool?.mcp)).toEqual([{ server: "everything", tool: "echo", description: "Echoes back the input string" }]);
    await h.dispose();

    h = await start({ turns: turns(), mcp: { servers: { everything: { ...EVERYTHING, autoApprove: ["echo"] } } } });
    expect(await h.run("listed")).toBe("completed");
    expect(h.asks.filter((a) => a.ask === "tool")).toHaveLength(0);
    await h.dispose();

    h = await start({ turns: turns(), settings: { yolo: true } });
    expect(await h.run("yolo")).toBe("completed");
    expect(h.asks.filter((a) => a.ask === "tool")).toHaveLength(0);
    expect(lastUserContent(h.server.requests[1])).toContain("Echo: x");
  });

  it("a rejected call reaches the model as a denial", async () => {
    const h = await start({ answer: (ask) => (ask.ask === "tool" ? { type: "no" } : { type: "yes" }), turns: [useMcp("everything", "echo", '{"message": "x"}'), DONE] });
    expect(await h.run("reject")).toBe("completed");
    expect(lastUserContent(h.server.requests[1])).toMatch(/denied/i);
    expect(lastUserContent(h.server.requests[1])).not.toContain("Echo: x");
  });

  it("invalid JSON and arguments that do not fit the schema are the model's mistakes, clearly said", async () => {
    const h = await start({ settings: MCP_ON, turns: [useMcp("everything", "get-sum", "{a: 2"), useMcp("everything", "get-sum", '{"a": "2"}'), useMcp("nowhere", "echo", "{}"), DONE] });
    expect(await h.run("mistakes")).toBe("completed");
    const [, afterJson, afterSchema, afterServer] = h.server.requests;
    expect(lastUserContent(afterJson)).toMatch(/arguments must be a JSON object; it is not valid JSON/);
    expect(lastUserContent(afterSchema)).toMatch(/invalid arguments for everything\/get-sum: .*required property 'b'.*arguments\/a must be number/);
    expect(lastUserContent(afterServer)).toContain('There is no MCP server \\"nowhere\\". Servers: everything.');
  });

  it("an image result reaches the model as an image block", async () => {
    const h = await start({ settings: MCP_ON, turns: [useMcp("everything", "get-tiny-image", "{}"), DONE] });
    expect(await h.run("image")).toBe("completed");
    const content = (h.server.requests[1]?.body.messages as { content: unknown }[]).at(-1)?.content as { type: string; source?: { media_type: string; data: string } }[];
    expect(content.find((b) => b.type === "image")?.source).toMatchObject({ media_type: "image/png", data: expect.stringMatching(/^iVBOR/) });
    const shown = resultRows(h).at(-1)?.parts ?? [];
    expect(shown.map((p) => p.type)).toEqual(["text", "image", "text"]);
    expect(shown[1]).toMatchObject({ type: "image", mimeType: "image/png", dataUrl: expect.stringMatching(/^data:image\/png;base64,iVBOR/) });
  });

  it("an isError result is marked as an error; structured content, links and embedded resources reach the model", async () => {
    const h = await start({
      settings: MCP_ON,
      turns: [useMcp("everything", "get-resource-links", '{"count": 99}'), useMcp("everything", "get-structured-content", '{"location": "Chicago"}'), useMcp("everything", "get-resource-links", '{"count": 1}'), useMcp("everything", "get-resource-reference", '{"resourceType": "Text", "resourceId": 3}'), DONE],
    });
    expect(await h.run("results")).toBe("completed");
    const [, isError, structured, links, embedded] = h.server.requests.map(lastUserContent);
    expect(isError).toMatch(/everything\/get-resource-links reported an error \(the call ran, the tool says it failed\).*Too big/);
    expect(structured).toMatch(/<structured_content>.*temperature/);
    expect(links).toMatch(/\[resource link\] .*: demo:\/\/resource\/.*read it with access_mcp_resource/);
    expect(embedded).toContain('<resource uri=\\"demo://resource/dynamic/text/3\\"');
    const [errorRow, structuredRow, linksRow, embeddedRow] = resultRows(h);
    expect(errorRow).toMatchObject({ isError: true, parts: [{ type: "text", text: expect.stringMatching(/Too big/) }] });
    expect(structuredRow?.isError).toBeUndefined();
    expect(linksRow?.parts).toContainEqual(expect.objectContaining({ type: "resource_link", uri: expect.stringMatching(/^demo:\/\/resource\//) }));
    expect(embeddedRow?.parts).toContainEqual(expect.objectContaining({ type: "resource", uri: "demo://resource/dynamic/text/3" }));
  });

  it("in native mode an isError result is a tool_result marked is_error", async () => {
    const h = await start({
      settings: { ...MCP_ON, toolCallMode: "native" },
      turns: [{ toolCalls: [{ id: "call_e", name: "use_mcp_tool", input: { server_name: "everything", tool_name: "get-resource-links", arguments: '{"count": 99}' } }] }, { toolCalls: [{ id: "call_d", name: "attempt_completion", input: { result: "done" } }] }],
    });
    expect(await h.run("native error")).toBe("completed");
    expect(lastUserContent(h.server.requests[1])).toMatch(/"tool_use_id":"call_e".*"is_error":true|"is_error":true.*"tool_use_id":"call_e"/);
  });

  it("shows progress notifications in one info row, updated in place", async () => {
    const h = await start({ settings: MCP_ON, turns: [useMcp("everything", "trigger-long-running-operation", '{"duration": 0.4, "steps": 4}'), DONE] });
    expect(await h.run("progress")).toBe("completed");
    const rows = h.messages.filter((m) => m.type === "say" && m.say === "info" && m.text?.includes("progress"));
    // One row for all four notifications (the last may come after the result, which the SDK then drops), finished with the call.
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ partial: false, text: expect.stringMatching(/^everything\/trigger-long-running-operation: progress [34] of 4$/) });
    expect(lastUserContent(h.server.requests[1])).toMatch(/completed/i);
  });
});

describe("access_mcp_resource", () => {
  it("reads a resource and hands its text to the model", async () => {
    const uri = "demo://resource/dynamic/text/1";
    const h = await start({ settings: MCP_ON, turns: [{ text: `<access_mcp_resource>\n<server_name>everything</server_name>\n<uri>${uri}</uri>\n</access_mcp_resource>` }, DONE] });
    expect(await h.run("resource")).toBe("completed");
    expect(lastUserContent(h.server.requests[1])).toContain(`<resource uri=\\"${uri}\\"`);
    const row = h.messages.find((m) => m.type === "say" && m.say === "tool" && m.tool?.mcp?.result);
    expect(row?.tool).toMatchObject({ tool: "access_mcp_resource", mcp: { server: "everything", uri, description: expect.any(String) } });
    expect(row?.tool?.mcp?.result?.parts).toEqual([expect.objectContaining({ type: "resource", uri, text: expect.stringContaining("Resource 1") })]);
  });
});

describe("servers that hang, crash or are cancelled", () => {
  it("a server hanging in initialize holds the first request only for the wait; the chat and the prompt say so", async () => {
    const h = await start({ settings: MCP_ON, mcp: { servers: { everything: EVERYTHING, hang: stdio(fixture("hang-initialize.mjs")) }, waitMs: 2_000, connectTimeoutMs: 30_000 }, turns: [useMcp("everything", "echo", '{"message": "ok"}'), DONE] });
    // On a loaded machine server-everything itself may take over 2 s to start; this test is about the one that hangs.
    await connected(h, "everything");
    const started = Date.now();
    expect(await h.run("hang")).toBe("completed");
    // Each request waited 2 s for it; had the first waited for its connect timeout (30 s), this would take 30 s or more.
    expect(Date.now() - started).toBeLessThan(20_000);
    const notes = h.messages.filter((m) => m.type === "say" && m.say === "info" && m.text?.includes("still connecting")).map((m) => m.text);
    // Said once, whatever number of requests went meanwhile.
    expect(notes).toEqual(["MCP: still connecting after 2 s, going on without the server hang for now."]);
    expect(systemText(h.server.requests[0])).toContain("Still connecting (their tools are not available yet): hang.");
    expect(lastUserContent(h.server.requests[1])).toContain("Echo: ok");
  });

  it("a server that dies mid-call: the model hears why, the task goes on, the prompt says it failed", async () => {
    const h = await start({ settings: MCP_ON, mcp: { servers: { tools: stdio(fixture("tool-server.mjs")) } }, turns: [useMcp("tools", "die", "{}"), useMcp("tools", "pid", "{}"), DONE] });
    expect(await h.run("crash")).toBe("completed");
    const [, afterDie, afterPid] = h.server.requests;
    expect(lastUserContent(afterDie)).toMatch(/The tool failed.*MCP .*(exited|closed|lost)/i);
    expect(lastUserContent(afterPid)).toMatch(/The MCP server \\"tools\\" is failed/);
    expect(systemText(afterPid)).toContain("Failed, not available: tools");
  });

  it("cancelling the task during a long call cancels it at the server (notifications/cancelled)", async () => {
    const h = await start({ settings: MCP_ON, mcp: { servers: { tools: stdio(fixture("tool-server.mjs")) } }, turns: [useMcp("tools", "wait-for-cancel", "{}"), DONE] });
    await h.start("cancel");
    await waitFor(() => h.messages.some((m) => m.type === "say" && m.say === "tool" && m.tool?.mcp?.tool === "wait-for-cancel"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cancelledAt = Date.now();
    await h.controller.cancelTask();
    expect(await h.finished()).toBe("aborted");
    expect(Date.now() - cancelledAt).toBeLessThan(2_000);
    await waitFor(async () => (await h.hub?.callTool("tools", "cancellations", {}))?.content[0]?.type === "text");
    const count = await h.hub?.callTool("tools", "cancellations", {});
    expect(count?.content[0]).toEqual({ type: "text", text: "1" });
  });
});

describe("native tool calls", () => {
  it("a namespaced function call reaches the right server tool, and the functions are offered", async () => {
    const h = await start({
      settings: { ...MCP_ON, toolCallMode: "native" },
      turns: [{ toolCalls: [{ id: "call_1", name: "mcp__everything__get-sum", input: { a: 20, b: 22 } }] }, { toolCalls: [{ id: "call_2", name: "attempt_completion", input: { result: "done" } }] }],
    });
    expect(await h.run("native")).toBe("completed");
    const tools = (h.server.requests[0]?.body.tools ?? []) as { name: string; input_schema: unknown }[];
    expect(tools.find((t) => t.name === "mcp__everything__get-sum")?.input_schema).toMatchObject({ type: "object", required: ["a", "b"] });
    expect(tools.map((t) => t.name)).toContain("use_mcp_tool");
    const next = lastUserContent(h.server.requests[1]);
    expect(next).toContain('"tool_use_id":"call_1"');
    expect(next).toContain("42");
    expect(systemText(h.server.requests[0])).toContain("mcp__<server>__<tool>");
  });
});

describe("the system prompt", () => {
  it("grows with the servers' tools (printed), and has no MCP part without a hub", async () => {
    const h = await start({ settings: MCP_ON, turns: [DONE] });
    await h.run("with");
    const withMcp = systemPrompt(h.server.requests[0]).length;
    const tools = h.hub?.servers()[0]?.tools.length ?? 0;
    await h.dispose();
    const bare = await start({ turns: [DONE], mcp: undefined });
    await bare.run("without");
    const without = systemPrompt(bare.server.requests[0]);
    expect(without).not.toContain("use_mcp_tool");
    expect(without).not.toContain("MCP SERVERS");
    const growth = withMcp - without.length;
    console.log(
      `System prompt (XML): ${without.length} chars (~${Math.round(without.length / 4)} tokens) without a hub, ${withMcp} with server-everything (${tools} tools): ` +
        `+${growth} chars (~${Math.round(growth / 4)} tokens), ${(growth / tools).toFixed(0)} chars (~${(growth / tools / 4).toFixed(0)} tokens) per server tool, the two MCP tools' own descriptions included`,
    );
    expect(growth / tools).toBeLessThan(350);
  });
});

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
