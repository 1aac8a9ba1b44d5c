/**
 * The ledger, driven through its moments with fake calls: each call starts, its rows (a command's
 * output rows) join a fake chat, it ends; with the result (or at completion) one row says what the
 * task touched.
 */
import { describe, expect, it } from "vitest";
import type { CommandConfinement, CommandRunInfo } from "../../../shared/command-run";
import type { ChatMessage, SayKind, TaskLedger } from "../../../shared/messages";
import type { StartingCall } from "../../task/participant";
import type { RawParams, ToolDefinition, ToolResult } from "../../task/tools/types";
import { TaskLedgerKeeper, type LedgerScope } from "./ledger";
import { WorkspaceRoots } from "../../util/workspace-roots";

const SANDBOXED: CommandConfinement = { kind: "sandboxed", technology: "bubblewrap", network: "allowList", allowedDomains: 3, writableFolders: [] };
const OK: ToolResult = { kind: "ok", content: "done" };

function fakeScope(changedSinceStart?: readonly string[]) {
  const chat: ChatMessage[] = [];
  const said: { kind: SayKind; text?: string; ledger?: TaskLedger; updateTs?: number }[] = [];
  const scope: LedgerScope = {
    roots: WorkspaceRoots.single("/ws"),
    messages: { chatMessages: chat },
    commands: { confinement: (outside) => (outside ? { kind: "outside" } : SANDBOXED) },
    participants: { lent: changedSinceStart ? { changes: { sinceStart: () => Promise.resolve(changedSinceStart) } } : {} },
    say: (kind, text, extra) => {
      said.push({ kind, text, ledger: extra?.ledger, ...(extra?.updateTs === undefined ? {} : { updateTs: extra.updateTs }) });
      return Promise.resolve(extra?.updateTs ?? 1000 + said.length);
    },
  };
  const row = (command: CommandRunInfo, text = "") => chat.push({ ts: chat.length + 1, type: "say", say: "command_output", text, command });
  return { scope, chat, said, row };
}

function starting(name: string, params: RawParams, nested = false): StartingCall {
  return { name, params, nested, tool: { name } as ToolDefinition };
}

/** One call through the ledger: started, `during` (the rows it adds), ended with `outcome`. */
async function call(ledger: TaskLedgerKeeper, name: string, params: RawParams, outcome: ToolResult | { failed: string } = OK, during?: () => void): Promise<void> {
  const watch = await ledger.callStarting(starting(name, params));
  during?.();
  await watch?.ended?.(outcome);
}

describe("the task ledger", () => {
  it("lists the files written, each command with its confinement and end, the hosts and the MCP servers, in one row", async () => {
    const { scope, said, row } = fakeScope();
    const ledger = new TaskLedgerKeeper(scope);
    await call(ledger, "write_to_file", { path: "notes.txt", content: "a" });
    await call(ledger, "replace_in_file", { path: "./notes.txt", diff: "…" });
    await call(ledger, "write_to_file", { path: "src/b.ts", content: "b" });
    await call(ledger, "execute_command", { command: " npm test " }, OK, () => {
      row({ confinement: SANDBOXED }, "partial output");
      row({ confinement: SANDBOXED, end: { kind: "exited", code: 0 } });
    });
    await call(ledger, "execute_command", { command: "exit 3" }, OK, () => row({ confinement: SANDBOXED, end: { kind: "exited", code: 3 } }, "boom"));
    await call(ledger, "execute_command", { command: "curl x", sandbox: "off" }, OK, () => row({ confinement: { kind: "outside" }, end: { kind: "exited", code: 0 } }));
    await call(ledger, "web_fetch", { url: "https://docs.example.com/a?b=1" });
    await call(ledger, "web_fetch", { url: "https://docs.example.com/other" });
    await call(ledger, "use_mcp_tool", { server_name: "github", tool_name: "search" });
    await call(ledger, "access_mcp_resource", { server_name: "files", uri: "file:///x" });
    await call(ledger, "read_file", { path: "README.md" });
    await ledger.taskCompleted();

    expect(said).toHaveLength(1);
    expect(said[0]?.kind).toBe("task_ledger");
    expect(said[0]?.ledger).toEqual({
      files: ["notes.txt", "src/b.ts"],
      commands: [
        { command: "npm test", sandbox: "sandboxed", end: { kind: "exited", code: 0 } },
        { command: "exit 3", sandbox: "sandboxed", end: { kind: "exited", code: 3 } },
        { command: "curl x", sandbox: "outside", end: { kind: "exited", code: 0 } },
      ],
      hosts: ["docs.example.com"],
      mcpServers: ["github", "files"],
    });
    expect(said[0]?.text).toContain("exit 3 (exit code 3, sandboxed)");
    expect(said[0]?.text).toContain("curl x (exit code 0, outside the sandbox by request)");
  });

  it("leaves out what did not happen: rejected or failed edits, rejected commands, rejected fetches; and adds no row when nothing was touched", async () => {
    const { scope, said } = fakeScope();
    const ledger = new TaskLedgerKeeper(scope);
    await call(ledger, "write_to_file", { path: "a.txt", content: "a" }, { kind: "rejected" });
    await call(ledger, "replace_in_file", { path: "a.txt", diff: "…" }, { failed: "SEARCH block not found" });
    await call(ledger, "execute_command", { command: "rm -rf /" }, { kind: "rejected" });
    await call(ledger, "web_fetch", { url: "http://10.0.0.1/" }, { kind: "rejected" });
    await call(ledger, "use_mcp_tool", { server_name: "github", tool_name: "x" }, { kind: "rejected" });
    await ledger.taskCompleted();
    expect(said).toEqual([]);
  });

  it("keeps paths outside the workspace absolute, and a command that could not start without an end, confined as the runner would", async () => {
    const { scope, said } = fakeScope();
    const ledger = new TaskLedgerKeeper(scope);
    await call(ledger, "write_to_file", { path: "../elsewhere/x.txt", content: "x" });
    await call(ledger, "execute_command", { command: "nope" }, { failed: "spawn failed" });
    await ledger.taskCompleted();
    expect(said[0]?.ledger).toEqual({ files: ["/elsewhere/x.txt"], commands: [{ command: "nope", sandbox: "sandboxed" }], hosts: [], mcpServers: [] });
    expect(said[0]?.text).toContain("nope (did not start, sandboxed)");
  });

  it("gives a command left in the background the end its later row reported, and reads a nested call (attempt_completion's command) like any other", async () => {
    const { scope, said, row } = fakeScope();
    const ledger = new TaskLedgerKeeper(scope);
    await call(ledger, "execute_command", { command: "npm run dev" }, OK, () => row({ confinement: SANDBOXED, end: { kind: "background" } }));
    const nested = await ledger.callStarting(starting("execute_command", { command: "open index.html" }, true));
    row({ confinement: SANDBOXED, end: { kind: "exited", code: 0 } });
    await nested?.ended?.(OK);
    row({ confinement: SANDBOXED, background: "npm run dev", end: { kind: "signal", signal: "SIGTERM" } });
    await ledger.taskCompleted();
    expect(said[0]?.ledger?.commands).toEqual([
      { command: "npm run dev", sandbox: "sandboxed", end: { kind: "signal", signal: "SIGTERM" } },
      { command: "open index.html", sandbox: "sandboxed", end: { kind: "exited", code: 0 } },
    ]);
  });

  it("lists the hosts sandboxed commands reached, a background command's once its end row says them, each once", async () => {
    const { scope, said, row } = fakeScope();
    const ledger = new TaskLedgerKeeper(scope);
    await call(ledger, "web_fetch", { url: "https://registry.npmjs.org/x" });
    await call(ledger, "execute_command", { command: "npm install" }, OK, () =>
      row({ confinement: SANDBOXED, end: { kind: "exited", code: 0 }, hosts: ["registry.npmjs.org", "127.0.0.1:8080"] }),
    );
    await call(ledger, "execute_command", { command: "npm run dev" }, OK, () => row({ confinement: SANDBOXED, end: { kind: "background" } }));
    row({ confinement: SANDBOXED, background: "npm run dev", end: { kind: "exited", code: 0 }, hosts: ["cdn.example.com"] });
    await ledger.taskCompleted();
    expect(said[0]?.ledger?.hosts).toEqual(["registry.npmjs.org", "127.0.0.1:8080", "cdn.example.com"]);
    expect(said[0]?.text).toContain("Hosts contacted:\n  - registry.npmjs.org\n  - 127.0.0.1:8080\n  - cdn.example.com");
  });

  it("says the ledger just before the result is shown, brings that row up to date at completion, and gives a later result a row of its own", async () => {
    const { scope, said, row } = fakeScope();
    const ledger = new TaskLedgerKeeper(scope);
    await call(ledger, "write_to_file", { path: "a.txt", content: "a" });
    const first = await ledger.callStarting(starting("attempt_completion", { result: "Done." }));
    expect(first).toBeUndefined();
    expect(said.map((s) => [s.kind, s.ledger?.files, s.updateTs])).toEqual([["task_ledger", ["a.txt"], undefined]]);
    // The person replied: the work goes on, and the next result shows the ledger so far in a row of its own.
    await call(ledger, "write_to_file", { path: "b.txt", content: "b" });
    await ledger.callStarting(starting("attempt_completion", { result: "Done again.", command: "open b.txt" }));
    // The result's own command runs after its row: completion updates that row, not a new one.
    await call(ledger, "execute_command", { command: "open b.txt" }, OK, () => row({ confinement: SANDBOXED, end: { kind: "exited", code: 0 } }));
    await ledger.taskCompleted();
    expect(said.map((s) => [s.ledger?.files, s.ledger?.commands.length, s.updateTs])).toEqual([
      [["a.txt"], 0, undefined],
      [["a.txt", "b.txt"], 0, undefined],
      [["a.txt", "b.txt"], 1, 1002],
    ]);
    // Nothing new since: no further update.
    await ledger.taskCompleted();
    expect(said).toHaveLength(3);
  });

  it("goes on, in a resumed task, from the last ledger its chat shows, and leaves out what of it is damaged", async () => {
    const { scope, said } = fakeScope();
    const ledger = new TaskLedgerKeeper(scope);
    const earlier = { files: ["a.txt", 7], commands: [{ command: "npm test", sandbox: "sandboxed", end: { kind: "exited", code: 0 } }, { command: "x", sandbox: "nowhere" }, { command: "y", sandbox: "outside", end: { kind: "odd" } }], hosts: "x", mcpServers: ["github"] };
    const chat: ChatMessage[] = [
      { ts: 1, type: "say", say: "task_ledger", text: "older", ledger: { files: ["old.txt"], commands: [], hosts: [], mcpServers: [] } },
      { ts: 2, type: "say", say: "task_ledger", text: "latest", ledger: earlier as unknown as TaskLedger },
      { ts: 3, type: "say", say: "completion_result", text: "Done." },
    ];
    await ledger.opened({ kind: "resumed", chat });
    await call(ledger, "write_to_file", { path: "b.txt", content: "b" });
    await call(ledger, "write_to_file", { path: "a.txt", content: "a again" });
    await ledger.taskCompleted();
    expect(said[0]?.ledger).toEqual({
      files: ["a.txt", "b.txt"],
      commands: [
        { command: "npm test", sandbox: "sandboxed", end: { kind: "exited", code: 0 } },
        { command: "y", sandbox: "outside" },
      ],
      hosts: [],
      mcpServers: ["github"],
    });
  });

  it("starts empty for a new task, and for a resumed one whose chat showed no ledger", async () => {
    const { scope, said } = fakeScope();
    const ledger = new TaskLedgerKeeper(scope);
    await ledger.opened({ kind: "resumed", chat: [{ ts: 1, type: "say", say: "text", text: "hi" }] });
    await ledger.taskCompleted();
    expect(said).toEqual([]);
  });

  it("with checkpoints on, lists apart the files that changed since the task began that no edit tool wrote", async () => {
    const { scope, said } = fakeScope(["notes.txt", "build/out.js", "package-lock.json"]);
    const ledger = new TaskLedgerKeeper(scope);
    await call(ledger, "write_to_file", { path: "notes.txt", content: "a" });
    await call(ledger, "execute_command", { command: "npm run build" });
    await ledger.callStarting(starting("attempt_completion", { result: "done" }));
    expect(said.at(-1)?.ledger).toMatchObject({ files: ["notes.txt"], otherChanges: ["build/out.js", "package-lock.json"] });
    expect(said.at(-1)?.text).toContain("Files changed otherwise since the task began (by commands, or outside Tandem):\n  - build/out.js\n  - package-lock.json");
  });

  it("with checkpoints on and nothing changed otherwise, keeps an empty list and shows no section for it", async () => {
    const { scope, said } = fakeScope(["notes.txt"]);
    const ledger = new TaskLedgerKeeper(scope);
    await call(ledger, "write_to_file", { path: "notes.txt", content: "a" });
    await ledger.callStarting(starting("attempt_completion", { result: "done" }));
    expect(said.at(-1)?.ledger?.otherChanges).toEqual([]);
    expect(said.at(-1)?.text).not.toContain("changed otherwise");
  });

  it("without checkpoints says nothing of other changes", async () => {
    const { scope, said } = fakeScope();
    const ledger = new TaskLedgerKeeper(scope);
    await call(ledger, "write_to_file", { path: "notes.txt", content: "a" });
    await ledger.callStarting(starting("attempt_completion", { result: "done" }));
    expect(said.at(-1)?.ledger?.otherChanges).toBeUndefined();
    expect(said.at(-1)?.text).not.toContain("changed otherwise");
  });
});
