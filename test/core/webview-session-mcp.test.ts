/**
 * The panel's MCP side against a real McpHub running the reference server-everything over stdio,
 * from a real configuration file: what the session posts, and what the view's actions do to the
 * servers and to the file.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpHub } from "../../src/core/mcp";
import { MemorySecretStore, MemorySettingsStore } from "../../src/core/controller/stores";
import { WebviewSession } from "../../src/core/controller/webview-session";
import { NodeHost } from "../../src/host/node/node-host";
import type { McpServerView } from "../../src/shared/mcp";
import type { FromWebviewMessage, ToWebviewMessage } from "../../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server";

const require = createRequire(import.meta.url);
const EVERYTHING = path.join(path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist", "index.js");

let folder: string;
let configFile: string;
let clineFile: string;
let hub: McpHub;
let session: WebviewSession;
let posted: ToWebviewMessage[];
let opened: string[];
let secrets: MemorySecretStore;

async function start(servers: Record<string, unknown> | undefined, model?: ScriptedModelServer): Promise<void> {
  if (servers) await writeFile(configFile, JSON.stringify({ mcpServers: servers }, null, 2));
  hub = new McpHub({ globalConfigFile: configFile, trustWorkspace: () => false, workspaceFolders: () => [folder], watch: false, connectTimeoutMs: 20_000, elicit: (s, p, sig) => session.elicit(s, p, sig) });
  session = new WebviewSession({
    post: (message) => posted.push(structuredClone(message)),
    host: new NodeHost(folder),
    settings: new MemorySettingsStore({ ...DEFAULT_AGENT_SETTINGS }, { provider: "anthropic", modelId: "claude-sonnet-4-6", ...(model ? { baseUrl: model.anthropicBaseUrl } : {}) }),
    secrets,
    storageRoot: path.join(folder, "storage"),
    openFile: async () => {},
    mcp: hub,
    mcpHost: { globalConfigFile: configFile, clineSettingsFiles: [path.join(folder, "missing.json"), clineFile], openFile: async (file) => void opened.push(file) },
  });
  await hub.start();
}

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "tandem-session-mcp-"));
  configFile = path.join(folder, "tandem_mcp_settings.json");
  clineFile = path.join(folder, "cline", "settings", "cline_mcp_settings.json");
  posted = [];
  opened = [];
  secrets = new MemorySecretStore();
});

afterEach(async () => {
  await session.dispose();
  await hub.shutdown();
  await rm(folder, { recursive: true, force: true });
});

const send = (message: FromWebviewMessage) => session.handle(message);
const act = (action: Extract<FromWebviewMessage, { type: "mcpAction" }>["action"]) => send({ type: "mcpAction", action });
const deltas = () => posted.filter((m): m is Extract<ToWebviewMessage, { type: "mcpServersChanged" }> => m.type === "mcpServersChanged");
const notices = () => posted.filter((m): m is Extract<ToWebviewMessage, { type: "notice" }> => m.type === "notice");
const fileServers = async () => (JSON.parse(await readFile(configFile, "utf8")) as { mcpServers: Record<string, Record<string, unknown>> }).mcpServers;

/** The newest state the session posted for `name` (whole in `state`, then deltas). */
function lastView(name: string): McpServerView | undefined {
  let view: McpServerView | undefined;
  for (const m of posted) {
    if (m.type === "state") view = m.state.mcp.servers.find((s) => s.name === name);
    if (m.type === "mcpServersChanged") {
      view = m.changed.find((s) => s.name === name) ?? (m.removed.includes(name) ? undefined : view);
    }
  }
  return view;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the panel's MCP view, against server-everything", () => {
  beforeEach(() => start({ everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } }));

  it("posts the servers in state, then each change as a delta of that server only", async () => {
    await send({ type: "ready" });
    const state = posted.find((m) => m.type === "state");
    expect(state?.type === "state" && state.state.mcp.available).toBe(true);
    await until(() => lastView("everything")?.state === "connected");
    const view = lastView("everything")!;
    expect(view.source).toBe("global");
    expect(view.tools.map((t) => t.name)).toContain("echo");
    expect(view.tools.every((t) => t.autoApprove === false)).toBe(true);
    expect(view.resources.length + view.templates.length).toBeGreaterThan(0);
    expect(view.timeoutSeconds).toBe(60);
    // Never the whole list again: one server per delta, and none repeats what was last sent.
    for (const d of deltas()) expect(d.changed.length + d.removed.length).toBeLessThanOrEqual(1);
    const json = deltas().map((d) => JSON.stringify(d.changed));
    expect(new Set(json).size).toBe(json.length);
    // A page that loads again gets the whole view, connected.
    await send({ type: "ready" });
    const again = posted.filter((m) => m.type === "state").at(-1);
    expect(again?.type === "state" && again.state.mcp.servers[0]?.state).toBe("connected");
  });

  it("writes a tool's auto-approve to the file and shows it", async () => {
    await until(() => hub.servers()[0]?.state === "connected");
    await act({ action: "setToolAutoApprove", server: "everything", tool: "echo", allow: true });
    expect((await fileServers()).everything?.autoApprove).toEqual(["echo"]);
    await until(() => lastView("everything")?.tools.find((t) => t.name === "echo")?.autoApprove === true);
    await act({ action: "setToolAutoApprove", server: "everything", tool: "echo", allow: false });
    expect((await fileServers()).everything?.autoApprove).toEqual([]);
    expect(notices()).toEqual([]);
  });

  it("disables, enables, restarts and deletes the server", async () => {
    await until(() => lastView("everything")?.state === "connected");
    await act({ action: "setDisabled", server: "everything", disabled: true });
    expect((await fileServers()).everything?.disabled).toBe(true);
    expect(lastView("everything")).toMatchObject({ state: "disabled", tools: [] });
    expect(hub.servers()[0]?.state).toBe("disabled");

    await act({ action: "setDisabled", server: "everything", disabled: false });
    expect((await fileServers()).everything?.disabled).toBeUndefined();
    await until(() => lastView("everything")?.state === "connected");

    const before = posted.length;
    await act({ action: "restart", server: "everything" });
    const states = posted.slice(before).flatMap((m) => (m.type === "mcpServersChanged" ? m.changed.map((s) => s.state) : []));
    expect(states[0]).toBe("connecting");
    expect(lastView("everything")?.state).toBe("connected");

    await act({ action: "setTimeout", server: "everything", seconds: 120 });
    expect((await fileServers()).everything?.timeout).toBe(120);
    expect(lastView("everything")?.timeoutSeconds).toBe(120);

    await act({ action: "delete", server: "everything" });
    expect(await fileServers()).toEqual({});
    expect(deltas().at(-1)?.removed).toEqual(["everything"]);
    expect(hub.servers()).toEqual([]);
    expect(notices()).toEqual([]);
  });

  it("says what failed, naming the action, and changes nothing", async () => {
    await act({ action: "restart", server: "nope" });
    await act({ action: "setTimeout", server: "everything", seconds: -5 });
    expect(notices().map((n) => [n.level, n.text])).toEqual([
      ["error", 'MCP: could not restart "nope": no MCP server named "nope"'],
      ["error", 'MCP: could not set the timeout of "everything": the timeout must be a number of seconds between 1 and 86400, not -5'],
    ]);
    expect((await fileServers()).everything?.timeout).toBeUndefined();
  });

  it("imports Cline's servers without overwriting Tandem's, and says which", async () => {
    await act({ action: "importFromCline" });
    expect(notices().at(-1)?.text).toMatch(/^MCP: could not import from Cline: No Cline MCP settings were found/);
    const { mkdir } = await import("node:fs/promises");
    await mkdir(path.dirname(clineFile), { recursive: true });
    const cline = { mcpServers: { everything: { command: "cline-own" }, broken: { command: path.join(folder, "no-such-server"), transportType: "stdio" } } };
    await writeFile(clineFile, JSON.stringify(cline));
    await act({ action: "importFromCline" });
    expect(notices().at(-1)).toEqual({
      type: "notice",
      level: "info",
      text: 'Imported 1 MCP server from Cline: "broken". Kept Tandem\'s own "everything" (same name in Cline\'s file).',
    });
    const servers = await fileServers();
    expect(servers.everything?.command).toBe(process.execPath);
    expect(servers.broken).toEqual({ command: path.join(folder, "no-such-server"), type: "stdio" });
    // The hub picked it up; a command that does not exist fails, and the view says why.
    await until(() => lastView("broken")?.state === "failed");
    expect(lastView("broken")?.error).toBeTruthy();
  });

  it("shows a server's elicitation as a form and returns the person's answer", async () => {
    await until(() => hub.servers()[0]?.state === "connected");
    const call = hub.callTool("everything", "trigger-elicitation-request", {});
    await until(() => posted.some((m) => m.type === "mcpElicitationOpened"));
    const opened = posted.find((m) => m.type === "mcpElicitationOpened");
    if (opened?.type !== "mcpElicitationOpened") throw new Error("no form");
    const { elicitation } = opened;
    expect(elicitation.server).toBe("everything");
    const kinds = Object.fromEntries(elicitation.fields.map((f) => [f.name, f.kind]));
    expect(kinds).toMatchObject({ name: "string", check: "boolean", integer: "number", untitledSingleSelectEnum: "enum", titledSingleSelectEnum: "enum", untitledMultipleSelectEnum: "unsupported" });
    expect(elicitation.fields.find((f) => f.name === "name")?.required).toBe(true);
    // A missing required value is refused and the form stays open.
    await send({ type: "mcpElicitationAnswer", answer: { id: elicitation.id, action: "accept", content: {} } });
    expect(notices().at(-1)?.text).toBe('"String" is required.');
    await send({ type: "mcpElicitationAnswer", answer: { id: elicitation.id, action: "accept", content: { name: "Ada Lovelace", check: true, integer: 7, titledSingleSelectEnum: "hero-3" } } });
    const result = await call;
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    expect(text).toContain("Ada Lovelace");
    expect(text).toContain("hero-3");
    expect(posted.some((m) => m.type === "mcpElicitationClosed" && m.id === elicitation.id)).toBe(true);
    // Answering again: it is closed.
    await send({ type: "mcpElicitationAnswer", answer: { id: elicitation.id, action: "decline" } });
    expect(notices().at(-1)?.text).toBe("That server's request was already closed.");
  });
});

describe("Edit configuration", () => {
  it("creates the global file with no servers when it is missing, and opens it", async () => {
    await start(undefined);
    await act({ action: "editConfig" });
    expect(JSON.parse(await readFile(configFile, "utf8"))).toEqual({ mcpServers: {} });
    expect(opened).toEqual([configFile]);
    // An existing file is left as it is.
    await writeFile(configFile, '{"mcpServers": {"x": {"command": "y", "disabled": true}}}');
    await act({ action: "editConfig" });
    expect(await readFile(configFile, "utf8")).toContain('"x"');
    expect(notices()).toEqual([]);
  });
});

describe("an elicitation during a task", () => {
  let model: ScriptedModelServer;
  beforeEach(async () => {
    model = await startScriptedModelServer();
    await start({ everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } }, model);
    await secrets.setApiKey("anthropic", "sk-ant-test");
  });
  afterEach(() => model.close());

  it("is cancelled when the task is cancelled", async () => {
    await until(() => hub.servers()[0]?.state === "connected");
    // A slow answer keeps the task running while the server asks.
    model.enqueue({ text: "thinking ".repeat(400), chunkSize: 1, delayMs: 20 });
    await send({ type: "newTask", text: "Go slowly.", images: [] });
    await until(() => session.controller.isRunning);
    const call = hub.callTool("everything", "trigger-elicitation-request", {});
    await until(() => posted.some((m) => m.type === "mcpElicitationOpened"));
    const opened = posted.find((m) => m.type === "mcpElicitationOpened");
    await send({ type: "cancelTask" });
    await until(() => posted.some((m) => m.type === "mcpElicitationClosed"));
    const closed = posted.find((m) => m.type === "mcpElicitationClosed");
    expect(closed?.type === "mcpElicitationClosed" && opened?.type === "mcpElicitationOpened" && closed.id === opened.elicitation.id).toBe(true);
    const text = (await call).content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    expect(text.toLowerCase()).toContain("cancel");
  });
});
