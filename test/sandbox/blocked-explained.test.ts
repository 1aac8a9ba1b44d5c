/**
 * Issue 12: when the sandbox blocks something, the model's next request says what was blocked and
 * how to ask for a run outside it; and `<sandbox>off</sandbox>` always needs the person, even in
 * YOLO (unattended: exit code 3), unless `--auto-approve outside-sandbox`. Through the production
 * CLI and the scripted model, in a throwaway HOME and workspace.
 *
 *   npx vitest run test/sandbox/blocked-explained.test.ts
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandTurn, sandboxLine, SandboxCli, toolResultIn, type SandboxRun } from "./sandbox-cli";

/** Writes a file in HOME through an interpreter, which the guard lets run: only the sandbox can stop it. */
const WRITE_HOME = "python3 -c \"import os; open(os.environ['HOME'] + '/outside.txt', 'w').write('x')\"";
// The key's name is built at run time: a command that names a secret file asks before it runs, sandbox or not.
const READ_KEY = "python3 -c \"import os; print(open(os.path.expanduser('~/.ssh/id_' + 'rsa')).read())\"";
const UNLISTED_HTTPS = "curl -sS https://evil.example.com/";
/** Plain HTTP: the proxy answers the refusal itself, so curl exits 0 with the proxy's page as output. */
const UNLISTED_HTTP = "curl -sS http://evil.example.com/";

let dir: string;
let cli: SandboxCli;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tandem-sandbox-explained-"));
  cli = SandboxCli.shipped();
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function world(): Promise<{ ws: string; home: string }> {
  const root = path.join(dir, `case-${++n}`);
  const ws = path.join(root, "ws");
  const home = path.join(root, "home");
  await mkdir(ws, { recursive: true });
  await mkdir(path.join(home, ".ssh"), { recursive: true });
  await writeFile(path.join(home, ".ssh/id_rsa"), "not for the model\n");
  await writeFile(path.join(ws, "README.md"), "# demo\n");
  return { ws, home };
}

function about(run: SandboxRun, result?: string): string {
  return `exit ${run.code}; ${sandboxLine(run.stderr) ?? "no Sandbox line"}\nresult: ${result ?? "(none)"}\nstderr: ${run.stderr.slice(-1200)}`;
}

describe("the model hears what the sandbox blocked", () => {
  it("a write outside the workspace: names the path, the read-only file system, and <sandbox>off</sandbox>", async () => {
    const { ws, home } = await world();
    const run = await cli.run({ home, ws, turns: [commandTurn(WRITE_HOME)] });
    const result = toolResultIn(run.requests, 1);
    expect(sandboxLine(run.stderr), about(run, result)).toMatch(/^Sandbox: on/);
    expect(existsSync(path.join(home, "outside.txt")), "the write must not have happened").toBe(false);
    expect(result, about(run, result)).toContain(path.join(home, "outside.txt"));
    expect(result, about(run, result)).toMatch(/read-only/i);
    expect(result, about(run, result)).toMatch(/sandbox/i);
    expect(result, about(run, result)).toContain("<sandbox>off</sandbox>");
  }, 60_000);

  it("a read of a credential store: says the sandbox hides it, without its content", async () => {
    const { ws, home } = await world();
    const run = await cli.run({ home, ws, turns: [commandTurn(READ_KEY)] });
    const result = toolResultIn(run.requests, 1) ?? "";
    expect(result, about(run, result)).not.toContain("not for the model");
    expect(result, about(run, result)).toContain(path.join(home, ".ssh"));
    expect(result, about(run, result)).toMatch(/hides|hidden|cannot be read/i);
    expect(result, about(run, result)).toContain("<sandbox>off</sandbox>");
  }, 60_000);

  for (const [how, command] of [
    ["https", UNLISTED_HTTPS],
    ["plain http", UNLISTED_HTTP],
  ] as const) {
    it(`a host off the allow list (${how}): names the host and the allow list`, async () => {
      const { ws, home } = await world();
      const run = await cli.run({ home, ws, turns: [commandTurn(command)] });
      const result = toolResultIn(run.requests, 1) ?? "";
      expect(result, about(run, result)).toMatch(/allow list/i);
      expect(result, about(run, result)).toContain("evil.example.com");
      expect(result, about(run, result)).toContain("<sandbox>off</sandbox>");
    }, 60_000);
  }
});

describe("<sandbox>off</sandbox> needs the person, even in YOLO", () => {
  it("unattended YOLO stops with exit code 3 and does not run it", async () => {
    const { ws, home } = await world();
    const run = await cli.run({ home, ws, turns: [commandTurn(WRITE_HOME, { sandbox: "off" })] });
    expect(run.code, about(run)).toBe(3);
    expect(run.stderr, about(run)).toMatch(/needs approval/);
    expect(run.stderr, about(run)).toMatch(/outside the sandbox/i);
    expect(existsSync(path.join(home, "outside.txt")), "it must not have run").toBe(false);
  }, 60_000);

  it("with --auto-approve outside-sandbox it runs, unconfined", async () => {
    const { ws, home } = await world();
    const run = await cli.run({ home, ws, turns: [commandTurn(WRITE_HOME, { sandbox: "off" })], args: ["--auto-approve", "outside-sandbox"] });
    expect(run.code, about(run, toolResultIn(run.requests, 1))).toBe(0);
    // Only a command outside the sandbox can write in HOME.
    expect(existsSync(path.join(home, "outside.txt")), about(run, toolResultIn(run.requests, 1))).toBe(true);
  }, 60_000);

  it("without it, the same command in the sandbox is blocked (the control)", async () => {
    const { ws, home } = await world();
    const run = await cli.run({ home, ws, turns: [commandTurn(WRITE_HOME)], args: ["--auto-approve", "outside-sandbox"] });
    expect(run.code, about(run)).toBe(0);
    expect(existsSync(path.join(home, "outside.txt"))).toBe(false);
  }, 60_000);
});
