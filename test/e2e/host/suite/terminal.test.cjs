/* global describe, it, before, after */
/**
 * Tandem's terminal host (src/host/vscode/terminal-manager.ts, terminal-command.ts) in the real
 * extension host: commands run in a "Tandem" terminal through VS Code's shell integration (bash),
 * their output and exit codes come back clean, an idle terminal serves the next command, and
 * timeout, abort and kill stop a command. Each command logs which path ran it.
 */
const assert = require("node:assert/strict");
const { mkdir } = require("node:fs/promises");
const path = require("node:path");
const vscode = require("vscode");
const { tandemExports, waitFor, workspaceRoot } = require("./tandem.cjs");

/** What the host prints first when it runs a command without shell integration (terminal-command.ts). */
const FALLBACK_MARK = "shell integration unavailable";
/** Generous upper bound for a stopped command to settle (Ctrl-C, or closing the terminal after 3 s). */
const STOP_WITHIN_MS = 10_000;

/** Global settings this suite needs. */
const TERMINAL_SETTINGS = {
  "terminal.integrated.shellIntegration.enabled": true,
  "terminal.integrated.defaultProfile.linux": "bash",
};

function tandemTerminals() {
  return vscode.window.terminals.filter((t) => t.name === "Tandem" && t.exitStatus === undefined);
}

/**
 * The session's first terminal also starts VS Code's pty host, which on a loaded machine can take
 * longer than the 5 s Tandem gives a new terminal to report shell integration (its first command
 * would then run as a child process, and the tests below expect the terminal). A terminal of our
 * own absorbs that one-time start.
 */
async function warmUpTerminals() {
  const started = Date.now();
  const probe = vscode.window.createTerminal({ name: "warm-up", shellPath: "bash" });
  try {
    await waitFor("shell integration in a warm-up bash terminal", () => probe.shellIntegration !== undefined, { timeoutMs: 15_000 });
    console.log(`      (a warm-up bash terminal reported shell integration after ${Date.now() - started} ms)`);
  } catch (error) {
    // Not fatal: the tests below say what Tandem's own terminal did.
    console.log(`      (warm-up: ${error instanceof Error ? error.message : error})`);
  } finally {
    probe.dispose();
  }
}

describe("Tandem's terminal in the extension host", function () {
  this.timeout(20_000);
  /** @type {import("../../../../src/host/bridge").TerminalHost} */
  let terminal;
  let cwd;
  const previous = {};

  /** Runs `command` to its end; returns the exit, the output, how long it took and the path it took. */
  async function run(command, { timeoutMs, signal = new AbortController().signal, folder = cwd, whileRunning, host = terminal } = {}) {
    const started = Date.now();
    const running = host.run(command, { cwd: folder, timeoutMs, signal });
    let output = "";
    running.onOutput((text) => (output += text));
    whileRunning?.(running);
    const exit = await running.completion;
    const ms = Date.now() - started;
    const direct = output.includes(FALLBACK_MARK);
    console.log(
      `      $ ${command} -> exit ${exit.exitCode}${exit.stoppedBy ? `, stopped by ${exit.stoppedBy}` : ""} in ${ms} ms ` +
        `via ${direct ? "direct capture (no shell integration)" : "shell integration"}; ${tandemTerminals().length} Tandem terminal(s)`,
    );
    return { exit, output, ms, direct };
  }

  before(async () => {
    ({ terminal } = (await tandemExports()).host);
    cwd = workspaceRoot();
    const config = vscode.workspace.getConfiguration();
    for (const [key, value] of Object.entries(TERMINAL_SETTINGS)) {
      previous[key] = config.inspect(key)?.globalValue;
      await config.update(key, value, vscode.ConfigurationTarget.Global);
    }
    await warmUpTerminals();
  });

  after(async () => {
    for (const t of tandemTerminals()) t.dispose();
    const config = vscode.workspace.getConfiguration();
    for (const key of Object.keys(TERMINAL_SETTINGS)) await config.update(key, previous[key], vscode.ConfigurationTarget.Global);
  });

  it("runs a command in a Tandem terminal through bash's shell integration", async () => {
    const { exit, output, direct } = await run("echo tandem-$((6*7))");
    assert.equal(direct, false, `bash's shell integration is used, not the fallback: ${JSON.stringify(output)}`);
    assert.match(output, /^tandem-42$/m, "the command's output is captured");
    assert.ok(!output.includes("\x1b") && !output.includes("\x07"), "escape sequences are removed");
    assert.doesNotMatch(output, /\(\(6\*7\)\)/, "the typed command line is not part of the output");
    assert.deepEqual(exit, { exitCode: 0, signal: null, stoppedBy: null });

    const shown = tandemTerminals();
    assert.equal(shown.length, 1, `one "Tandem" terminal is open; terminals: ${vscode.window.terminals.map((t) => t.name).join(", ")}`);
    assert.ok(shown[0].shellIntegration, "the Tandem terminal has shell integration");
  });

  it("reuses the idle Tandem terminal for the next command in the same folder", async () => {
    const before = tandemTerminals();
    const reported = before[0]?.shellIntegration?.cwd?.toString();
    const { exit, output, direct } = await run("printf x; false");
    assert.equal(exit.exitCode, 1, "the exit code of the command line is reported");
    assert.deepEqual(
      tandemTerminals().map((t) => t.creationOptions),
      before.map((t) => t.creationOptions),
      `the idle terminal served the command instead of a new one (its shell reports its folder as ${reported}; the workspace is ${vscode.workspace.workspaceFolders?.[0]?.uri.toString()})`,
    );
    assert.equal(direct, false, "still through shell integration");
    assert.equal(output, "x");
  });

  it("reports other exit codes, and stderr with stdout in order", async () => {
    const three = await run("sh -c 'exit 3'");
    assert.equal(three.exit.exitCode, 3);
    const lines = await run("printf 'one\\ntwo\\n'; echo three >&2");
    assert.equal(lines.exit.exitCode, 0);
    assert.match(lines.output, /one\ntwo\nthree/);
  });

  it("stops a command when the abort signal fires, and a terminal serves the next one", async () => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 500);
    const { exit, ms } = await run("sleep 30", { signal: abort.signal });
    clearTimeout(timer);
    assert.equal(exit.stoppedBy, "abort");
    assert.ok(ms < STOP_WITHIN_MS, `stopped after ${ms} ms`);

    const next = await run("echo after-abort");
    assert.match(next.output, /^after-abort$/m);
    assert.equal(next.exit.exitCode, 0);
  });

  it("stops a command at its timeout", async () => {
    const { exit, ms } = await run("sleep 30", { timeoutMs: 500 });
    assert.equal(exit.stoppedBy, "timeout");
    assert.ok(ms < STOP_WITHIN_MS, `stopped after ${ms} ms`);
  });

  it("stops a command on kill()", async () => {
    const { exit, ms } = await run("sleep 30", { whileRunning: (running) => setTimeout(() => running.kill(), 500) });
    assert.equal(exit.stoppedBy, "kill");
    assert.ok(ms < STOP_WITHIN_MS, `stopped after ${ms} ms`);
  });

  it("runs in the folder it is given", async () => {
    const folder = path.join(cwd, "terminal-suite", "sub dir");
    await mkdir(folder, { recursive: true });
    const { exit, output } = await run("pwd", { folder });
    assert.equal(exit.exitCode, 0);
    assert.ok(output.split("\n").includes(folder), `pwd printed ${JSON.stringify(output)}`);
  });

  it("refuses a folder that does not exist, with a clear error", async () => {
    const missing = path.join(cwd, "no-such-folder");
    await assert.rejects(run("true", { folder: missing }), /Could not start the command in .*no-such-folder/);
  });

  it("runs a command as a child process when its terminal is late, and that terminal serves the next one", async () => {
    // A second terminal host that waits 1 ms plays a machine too busy to start a shell in time.
    const SlowTerminalHost = terminal.constructor;
    const slow = new SlowTerminalHost(terminal.env.fallback, terminal.env.log, { shellIntegrationTimeoutMs: 1 });
    try {
      for (const t of tandemTerminals()) t.dispose();
      await waitFor("the earlier Tandem terminals to close", () => tandemTerminals().length === 0);
      const first = await run("echo first-$((1+1))", { host: slow });
      assert.equal(first.direct, true, "the command did not wait for the late terminal");
      assert.match(first.output, /^first-2$/m);
      assert.equal(first.exit.exitCode, 0);

      await waitFor("the late terminal's shell integration", () => tandemTerminals().some((t) => t.shellIntegration), { timeoutMs: 15_000 });
      const second = await run("echo second-$((2+2))", { host: slow });
      assert.equal(second.direct, false, "the terminal that was late serves the next command through shell integration");
      assert.match(second.output, /^second-4$/m);
      assert.equal(tandemTerminals().length, 1, "no further terminal was opened");
    } finally {
      slow.dispose();
    }
  });
});
