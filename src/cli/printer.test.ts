import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { CUT_OFF_ROW_TEXT } from "../core/task/tool-executor";
import { describeHookRun } from "../core/hooks";
import { CliPrinter } from "./printer";

function printed(show: (printer: CliPrinter) => void): string {
  const out = new PassThrough();
  let text = "";
  out.on("data", (chunk: Buffer) => (text += chunk.toString()));
  show(new CliPrinter(out, false));
  return text;
}

describe("CliPrinter", () => {
  it("prints what the model and commands wrote with their control characters visible, streamed or whole", () => {
    const text = printed((p) => {
      p.show({ ts: 1, type: "say", say: "text", text: "Hi\u001b]0;title\u0007 there\r", partial: true });
      p.show({ ts: 1, type: "say", say: "text", text: "Hi\u001b]0;title\u0007 there\r\nnext\rover", partial: false });
      p.show({ ts: 2, type: "ask", ask: "command", text: "touch pwned\recho hello" });
      p.show({ ts: 3, type: "say", say: "command_output", text: "\u001b[32mgreen\u001b[0m", command: { confinement: { kind: "none", why: "off" }, end: { kind: "exited", code: 0 } } });
    });
    expect(text).toBe("Hi␛]0;title␇ there\nnext␍over\n? run command: touch pwned␍echo hello\ncommand_output: ␛[32mgreen␛[0m\n[Exit code 0 · not sandboxed]\n");
  });

  it("says a cut-off tool call was not run, instead of printing it like a done one", () => {
    const text = printed((p) => {
      p.show({ ts: 1, type: "say", say: "tool", tool: { tool: "write_to_file", path: "big.txt" } });
      p.show({ ts: 2, type: "say", say: "tool", text: CUT_OFF_ROW_TEXT, tool: { tool: "write_to_file", path: "big.txt", cutOff: true } });
    });
    expect(text).toBe(`[write_to_file] big.txt\n[write_to_file] big.txt: ${CUT_OFF_ROW_TEXT}\n`);
  });

  it("prints a call the mode refused with the note, and what an MCP call returned after its line", () => {
    const text = printed((p) => {
      p.show({ ts: 1, type: "say", say: "tool", text: "Plan mode only explores and plans.", tool: { tool: "write_to_file", path: "a.js", refusedIn: "plan" } });
      p.show({ ts: 2, type: "say", say: "tool", tool: { tool: "use_mcp_tool", mcp: { server: "s", tool: "t" } } });
      p.show({ ts: 3, type: "say", say: "tool", tool: { tool: "use_mcp_tool", mcp: { server: "s", tool: "t", result: { isError: true, parts: [{ type: "text", text: "no" }] } } } });
    });
    expect(text).toBe("[write_to_file] a.js: Plan mode only explores and plans.\n[use_mcp_tool] s/t\n[use_mcp_tool] s/t reported an error (1 part)\n");
  });

  it("prints how a command ended after its output, naming a command that went on in the background", () => {
    const text = printed((p) => {
      p.show({ ts: 1, type: "say", say: "command_output", text: "ok", command: { confinement: { kind: "none", why: "off" }, end: { kind: "exited", code: 0 } } });
      p.show({ ts: 2, type: "say", say: "command_output", text: "", command: { confinement: { kind: "outside" }, end: { kind: "exited", code: 3 }, background: "npm run dev" } });
    });
    expect(text).toBe("command_output: ok\n[Exit code 0 · not sandboxed]\n[npm run dev: Exit code 3 · outside the sandbox]\n");
  });

  it("ends a streamed line that was cut short before printing the next row (a retry after a stall)", () => {
    const text = printed((p) => {
      p.show({ ts: 1, type: "say", say: "text", text: "Thinking about it", partial: true });
      p.show({ ts: 2, type: "say", say: "error_retry", text: "Retrying in 2s." });
    });
    expect(text).toBe("Thinking about it\nretry: Retrying in 2s.\n");
  });

  it("holds a request's figures and a checkpoint until the prose's line ends, never inside it", () => {
    const request = { tokensIn: 10, tokensOut: 2, cacheReads: 0, cacheWrites: 0, cost: 0.001, outcome: "completed" as const };
    const text = printed((p) => {
      p.show({ ts: 1, type: "say", say: "text", text: "First line\nsecond ha", partial: true });
      p.show({ ts: 2, type: "say", say: "api_req_started", apiRequest: request });
      p.show({ ts: 1, type: "say", say: "text", text: "First line\nsecond half\nthird", partial: true });
      p.show({ ts: 1, type: "say", say: "text", text: "First line\nsecond half\nthird line", partial: false });
      p.show({ ts: 3, type: "say", say: "text", text: "More wor", partial: true });
      p.show({ ts: 4, type: "say", say: "checkpoint_created", checkpoint: { hash: "a1b2c3d4e5f6", apiMessages: 3 } });
      p.show({ ts: 3, type: "say", say: "text", text: "More words.", partial: false });
    });
    expect(text).toBe("First line\nsecond half\n[request] in 10 out 2 cache r/w 0/0 $0.0010\nthird line\nMore words.\n[checkpoint] a1b2c3d4 saved (tandem checkpoints restore N puts it back)\n");
  });

  it("names a checkpoint by its number as `tandem checkpoints list` does, and prints a question at once", () => {
    const out = new PassThrough();
    let text = "";
    out.on("data", (chunk: Buffer) => (text += chunk.toString()));
    const p = new CliPrinter(out, false, (ts) => (ts === 4 ? 2 : undefined));
    p.show({ ts: 3, type: "say", say: "text", text: "Half a li", partial: true });
    p.show({ ts: 4, type: "say", say: "checkpoint_created", checkpoint: { hash: "a1b2c3d4e5f6", apiMessages: 3 } });
    p.show({ ts: 5, type: "ask", ask: "command", text: "npm test" });
    expect(text).toBe("Half a li\n[checkpoint 2] a1b2c3d4 saved (tandem checkpoints restore 2 puts it back)\n? run command: npm test\n");
  });

  it("prints a hook run as one line, and a blocked call with why", () => {
    const hook = { point: "PreToolUse", path: "/ws/.tandem/hooks/PreToolUse", source: "workspace", outcome: "cancelled", durationMs: 12, output: "many\nlines" } as const;
    const text = printed((p) => {
      p.show({ ts: 1, type: "say", say: "tool", text: "Blocked by a PreToolUse hook: no .js", tool: { tool: "write_to_file", path: "a.js", blocked: true } });
      p.show({ ts: 2, type: "say", say: "hook", text: describeHookRun(hook), hook });
    });
    expect(text).toBe("[write_to_file] a.js: Blocked by a PreToolUse hook: no .js\n[hook] PreToolUse hook /ws/.tandem/hooks/PreToolUse cancelled: no reason given (12 ms)\n");
  });

  it("prints the checklist as it changes, with its progress and who changed it", () => {
    const text = printed((p) => {
      p.show({ ts: 1, type: "say", say: "task_progress", focusChain: { items: [{ text: "Look", done: true }, { text: "Fix", done: false }], by: "model" } });
      p.show({ ts: 2, type: "say", say: "task_progress", focusChain: { items: [], by: "person" } });
    });
    expect(text).toBe("checklist 1/2:\n  [x] Look\n  [ ] Fix\nchecklist 0/0 (edited by the person): (empty)\n");
  });

  it("prints the task ledger as headed lists: files, commands with their end and confinement, hosts, servers", () => {
    const ledger = {
      files: ["notes.txt"],
      commands: [
        { command: "exit 3", sandbox: "sandboxed" as const, end: { kind: "exited" as const, code: 3 } },
        { command: "curl x", sandbox: "outside" as const, end: { kind: "exited" as const, code: 0 } },
      ],
      hosts: ["example.com"],
      mcpServers: [],
    };
    const text = printed((p) => p.show({ ts: 1, type: "say", say: "task_ledger", text: "ignored", ledger }));
    expect(text).toBe(
      "[ledger] What the task touched\nFiles written:\n  - notes.txt\nCommands run:\n  - exit 3 (exit code 3, sandboxed)\n  - curl x (exit code 0, outside the sandbox by request)\nHosts contacted:\n  - example.com\nMCP servers used: none\n",
    );
  });

  it("prints why Tandem asks under the question", () => {
    const text = printed((p) => p.show({ ts: 1, type: "ask", ask: "tool", text: "", tool: { tool: "write_to_file", path: ".tandemignore", why: "It always asks." } }));
    expect(text).toBe("? approve write_to_file .tandemignore\n  It always asks.\n");
  });

  it("prints a condensed context with its figures and the summary indented under it", () => {
    const text = printed((p) => p.show({ ts: 1, type: "say", say: "context_condensed", text: "Read a.ts.\nNext: test.", condense: { tokensBefore: 9000, tokensAfter: 1200, trigger: "auto" } }));
    expect(text).toBe("context condensed: 9000 → 1200 tokens\n  Read a.ts.\n  Next: test.\n");
  });
});
