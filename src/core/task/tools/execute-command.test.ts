import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NodeHost } from "../../../host/node/node-host";
import { NodeTerminal } from "../../../host/node/node-terminal";
import type { AskResponse } from "../../../shared/messages";
import { createExecuteCommandTool, executeCommandTool, type ExecuteCommandOptions } from "./execute-command";
import { fakeToolContext, runTool, tempDir, type FakeContextScript, type FakeToolContext } from "../../../../test/support/tool-context";
import { ToolError, type ToolResult } from "./types";

let ws: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir: ws, cleanup } = await tempDir("tandem-cmd-")));
afterEach(() => cleanup());

/** A tool context whose host really runs commands (with /bin/sh, so scripts behave the same everywhere). */
function context(script: FakeContextScript = {}) {
  const { ctx, log } = fakeToolContext(ws, script);
  const host = new NodeHost(ws, { terminal: new NodeTerminal({ shell: "/bin/sh", killGraceMs: 300 }) });
  return { ctx: { ...ctx, host } satisfies FakeToolContext, log };
}

/** Quick chat updates and no "still running" question unless a test wants one. */
function tool(options: Partial<ExecuteCommandOptions> = {}) {
  return createExecuteCommandTool({ chatUpdateMs: 20, backgroundUpdateMs: 20, proceedPromptAfterMs: 60_000, ...options });
}

function text(result: ToolResult): string {
  if (result.kind !== "ok" || typeof result.content !== "string") throw new Error(`unexpected result ${JSON.stringify(result)}`);
  return result.content;
}

/** A zombie counts as dead: it no longer runs, it only waits to be reaped. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

describe.skipIf(process.platform === "win32")("execute_command", () => {
  it("asks approval for the command, runs it in the workspace and reports exit code and output", async () => {
    const { ctx, log } = context();
    const result = await runTool(tool(), { command: " echo hello; pwd ", requires_approval: "false" }, ctx);
    expect(text(result)).toBe(`The command exited with code 0.\nOutput:\nhello\n${ws}`);
    expect(log.approvals).toEqual([
      {
        category: "command",
        command: "echo hello; pwd",
        // No host sandbox here: the row says the command runs unconfined.
        message: { tool: "execute_command", content: "echo hello; pwd", confinement: { kind: "none", why: "unavailable" } },
        requiresApproval: false,
        // The host's shell, so the policy reads the line as that shell would.
        shell: { path: "/bin/sh", interactive: false },
      },
    ]);
    const outputs = log.says.filter((s) => s.kind === "command_output");
    expect(outputs.at(-1)).toMatchObject({ text: `hello\n${ws}`, partial: false });
  });

  it("gives every output row the run's confinement, and the last one how it ended", async () => {
    const { ctx, log } = context();
    await runTool(tool(), { command: "echo first; sleep 0.2; echo second; exit 3" }, ctx);
    const outputs = log.says.filter((s) => s.kind === "command_output");
    expect(outputs.length).toBeGreaterThan(1);
    for (const row of outputs) expect(row.command?.confinement).toEqual({ kind: "none", why: "unavailable" });
    expect(outputs.slice(0, -1).every((row) => row.command?.end === undefined)).toBe(true);
    expect(outputs.at(-1)?.command).toEqual({ confinement: { kind: "none", why: "unavailable" }, end: { kind: "exited", code: 3 } });
  });

  it("passes requires_approval on as the model gave it, and leaves it out when missing", async () => {
    const { ctx, log } = context();
    await runTool(tool(), { command: "true", requires_approval: "TRUE" }, ctx);
    await runTool(tool(), { command: "true" }, ctx);
    expect(log.approvals.map((a) => a.requiresApproval)).toEqual([true, undefined]);
  });

  it("reports a failing command as a normal result with its exit code and error output", async () => {
    const { ctx } = context();
    const result = await runTool(tool(), { command: "echo oops >&2; exit 3" }, ctx);
    expect(text(result)).toBe("The command failed with exit code 3.\nOutput:\noops");
  });

  it("says when there was no output", async () => {
    const { ctx, log } = context();
    expect(text(await runTool(tool(), { command: "true" }, ctx))).toBe("The command exited with code 0.\nOutput: (none)");
    // No output, yet one finished row: it says how the command ended.
    expect(log.says.filter((s) => s.kind === "command_output")).toEqual([
      { kind: "command_output", text: "", partial: false, tool: undefined, command: { confinement: { kind: "none", why: "unavailable" }, end: { kind: "exited", code: 0 } } },
    ]);
  });

  it("does not run a declined command and passes the person's feedback on", async () => {
    const marker = path.join(ws, "ran");
    const { ctx } = context({ approvals: [{ approved: false, feedback: { text: "not now" } }] });
    const result = await runTool(tool(), { command: `touch ${marker}` }, ctx);
    expect(result).toEqual({ kind: "rejected", feedback: { text: "not now" } });
    expect(existsSync(marker)).toBe(false);
  });

  it("adds the message the person approved with to the result", async () => {
    const { ctx } = context({ approvals: [{ approved: true, feedback: { text: "use the fast mode" } }] });
    const result = await runTool(tool(), { command: "echo ok" }, ctx);
    expect(text(result)).toContain("The person approved this tool call with a message:\n<feedback>\nuse the fast mode\n</feedback>");
  });

  it.each([
    ["timeout", "abc", /timeout must be a number of seconds/],
    ["timeout", "0", /timeout must be a number of seconds/],
    ["timeout", "-5", /timeout must be a number of seconds/],
    ["timeout", "100000", /at most 86400/],
    ["requires_approval", "maybe", /requires_approval must be "true" or "false"/],
  ])("rejects %s=%s before asking anything", async (name, value, message) => {
    const { ctx, log } = context();
    const call = runTool(tool(), { command: "echo hi", [name]: value }, ctx);
    await expect(call).rejects.toThrow(message);
    await expect(call).rejects.toMatchObject({ reason: "invalid_param" });
    await expect(call).rejects.toBeInstanceOf(ToolError);
    expect(log.approvals).toEqual([]);
  });

  it("stops a command at its timeout together with the processes it started", async () => {
    const { ctx } = context();
    const result = text(await runTool(tool(), { command: "sleep 30 & echo $!; wait", timeout: "0.5" }, ctx));
    expect(result).toMatch(/^The command timed out after 0\.5 s: it was stopped, together with every process it started\.\nOutput:\n\d+$/);
    const grandchild = Number(/(\d+)$/.exec(result)?.[1]);
    await vi.waitFor(() => expect(isAlive(grandchild)).toBe(false), { timeout: 2_000 });
  });

  it("gives the model the head and tail of a huge output, with a hint how to see the rest", async () => {
    const { ctx, log } = context();
    const result = text(await runTool(tool(), { command: "seq 1 100000" }, ctx));
    const lines = result.split("\n");
    expect(lines.slice(0, 4)).toEqual(["The command exited with code 0.", "Output:", "1", "2"]);
    expect(result).toContain("\n200\n[… 99500 lines omitted …]\n99701\n");
    expect(lines.at(-2)).toBe("100000");
    expect(lines.at(-1)).toMatch(/middle of the output was left out/);
    // The chat is bounded the same way, and updated in batches rather than per chunk.
    const outputs = log.says.filter((s) => s.kind === "command_output");
    expect(outputs.every((s) => (s.text ?? "").length < 70_000)).toBe(true);
    expect(outputs.at(-1)?.text).toContain("[… 99500 lines omitted …]");
  });

  it("streams output to the chat while the command runs, as updates of one message", async () => {
    const { ctx, log } = context();
    const run = runTool(tool({ chatUpdateMs: 50 }), { command: "echo first; sleep 0.5; echo second" }, ctx);
    await vi.waitFor(() => expect(log.says.some((s) => s.kind === "command_output" && s.partial && s.text === "first")).toBe(true));
    expect(log.says.some((s) => s.text?.includes("second"))).toBe(false);
    await run;
    const outputs = log.says.filter((s) => s.kind === "command_output");
    expect(outputs.at(-1)).toMatchObject({ text: "first\nsecond", partial: false });
    expect(outputs.slice(0, -1).every((s) => s.partial)).toBe(true);
  });

  it("coalesces fast output into few chat updates", async () => {
    const { ctx, log } = context();
    await runTool(tool({ chatUpdateMs: 200 }), { command: "i=0; while [ $i -lt 3000 ]; do echo line $i; i=$((i+1)); done" }, ctx);
    const outputs = log.says.filter((s) => s.kind === "command_output");
    expect(outputs.length).toBeGreaterThan(0);
    expect(outputs.length).toBeLessThan(50);
  });

  describe("while the command is still running after a while", () => {
    it("lets the person go on without it: the model gets the output so far, the chat the rest", async () => {
      const { ctx, log } = context({ answers: [{ type: "yes" }] });
      const result = text(await runTool(tool({ proceedPromptAfterMs: 300 }), { command: "echo started; sleep 1; echo second-part; exit 4" }, ctx));
      expect(log.asks).toEqual([{ kind: "command_output", text: "echo started; sleep 1; echo second-part; exit 4 is still running" }]);
      expect(result).toContain("still running in the background");
      expect(result).toContain("Output:\nstarted");
      expect(result).not.toContain("second-part");
      const command = "echo started; sleep 1; echo second-part; exit 4";
      // The end is said once, by the run's last row, which names the command (other rows came between).
      await vi.waitFor(() => expect(log.says.at(-1)?.command).toMatchObject({ end: { kind: "exited", code: 4 }, background: command }), { timeout: 5_000 });
      expect(log.says.filter((s) => s.kind === "info")).toEqual([]);
      const outputs = log.says.filter((s) => s.kind === "command_output");
      expect(outputs.filter((s) => s.command?.background !== undefined).map((s) => s.text)).toContain("second-part");
      expect(outputs.map((s) => s.text)).toContain("second-part");
      expect(outputs.filter((s) => s.partial)).toEqual(outputs.filter((s) => s.partial && s.text === "started"));
      expect(outputs.at(-1)?.partial).toBe(false);
      // What the model gets with its next request: the output after it stopped waiting, and the end.
      const news = ctx.background.takeReport() ?? "";
      expect(news).toContain("second-part");
      expect(news).not.toMatch(/New output:\nstarted/);
      expect(news).toContain("has ended. The command failed with exit code 4.");
    });

    it("passes a message the person typed instead on to the model", async () => {
      const { ctx, log } = context({ answers: [{ type: "message", text: "it is a server, carry on" }] });
      const abort = new AbortController();
      const result = text(await runTool(tool({ proceedPromptAfterMs: 100 }), { command: "sleep 30" }, { ...ctx, signal: abort.signal }));
      abort.abort();
      expect(result).toContain("still running in the background");
      expect(result).toContain("<feedback>\nit is a server, carry on\n</feedback>");
      expect(log.says).toContainEqual(expect.objectContaining({ kind: "user_feedback", text: "it is a server, carry on" }));
    });

    it("stops the command when the person says no", async () => {
      const { ctx } = context({ answers: [{ type: "no" }] });
      const result = text(await runTool(tool({ proceedPromptAfterMs: 100 }), { command: "sleep 30 & echo $!; wait" }, ctx));
      expect(result).toMatch(/^The person stopped the command while it was running\.\nOutput:\n\d+$/);
      const grandchild = Number(/(\d+)$/.exec(result)?.[1]);
      await vi.waitFor(() => expect(isAlive(grandchild)).toBe(false), { timeout: 2_000 });
    });

    it("returns normally when the command ends before the person answers", async () => {
      const { ctx, log } = context();
      let withdrawn = false;
      const unanswered: FakeToolContext = {
        ...ctx,
        ask: (kind, text, extra) => {
          log.asks.push({ kind, text });
          // Nobody answers; the tool must take the question back when the command ends.
          return new Promise<AskResponse>((resolve) =>
            extra?.withdraw?.addEventListener("abort", () => {
              withdrawn = true;
              resolve({ type: "no" });
            }),
          );
        },
      };
      const result = text(await runTool(tool({ proceedPromptAfterMs: 300 }), { command: "echo a; sleep 1; echo b" }, unanswered));
      expect(log.asks).toHaveLength(1);
      expect(withdrawn).toBe(true);
      expect(result).toBe("The command exited with code 0.\nOutput:\na\nb");
      // The output before the question is one finished message, the output after it another.
      expect(log.says.filter((s) => s.kind === "command_output" && !s.partial).map((s) => s.text)).toEqual(["a", "b"]);
    });
  });

  it("kills the command with everything it started when the task is cancelled, and returns at once", async () => {
    const abort = new AbortController();
    const { ctx, log } = context({ signal: abort.signal });
    const run = runTool(tool(), { command: "sleep 30 & echo $!; wait" }, ctx);
    await vi.waitFor(() => expect(log.says.some((s) => s.kind === "command_output" && /^\d+$/.test(s.text ?? ""))).toBe(true));
    const grandchild = Number(log.says.find((s) => s.kind === "command_output")?.text);
    const started = Date.now();
    abort.abort();
    const result = text(await run);
    expect(Date.now() - started).toBeLessThan(5_000); // the command sleeps 30 s
    expect(result).toMatch(/^The command was stopped because the task was cancelled\./);
    await vi.waitFor(() => expect(isAlive(grandchild)).toBe(false), { timeout: 2_000 });
  });

  it("describes itself for the system prompt", () => {
    expect(executeCommandTool.name).toBe("execute_command");
    expect(executeCommandTool.approval).toBe("command");
    expect(executeCommandTool.params.map((p) => [p.name, p.required])).toEqual([
      ["command", true],
      ["requires_approval", false],
      ["timeout", false],
      ["sandbox", false],
    ]);
    expect(executeCommandTool.description).toMatch(/working directory/);
    expect(executeCommandTool.description).toMatch(/non-interactive/);
    expect(executeCommandTool.description).toMatch(/background/);
  });
});
