/**
 * MCP through the bundled CLI, as a separate process with real servers: --mcp-config, the default
 * global file, the workspace's .tandem/mcp.json only with --trust-workspace, --no-mcp, approval
 * in an unattended run, server-filesystem and server-memory as the model sees them, no server left
 * running after the run, and a `"sandbox": true` server confined.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, serverScript } from "../mcp/support";
import type { RecordedRequest } from "../support/script";
import { requestText, startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const EVERYTHING = { command: process.execPath, args: [serverScript("server-everything"), "stdio"] };
const done = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };
const useMcp = (server: string, tool: string, args: string) => ({
  text: `<use_mcp_tool>\n<server_name>${server}</server_name>\n<tool_name>${tool}</tool_name>\n<arguments>${args}</arguments>\n</use_mcp_tool>`,
});

async function configFile(folder: string, name: string, servers: Record<string, unknown>): Promise<string> {
  await mkdir(folder, { recursive: true });
  const file = join(folder, name);
  await writeFile(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

/** Runs the CLI with the scripted turns; returns the run and the requests it made. */
async function run(args: string[], turns: object[], env?: Record<string, string>) {
  const before = (await cli.requests()).length;
  await cli.script(turns as never);
  const result = await cli.run(args, { env, killAfterMs: 40_000 });
  await cli.dropScript();
  const requests: RecordedRequest[] = (await cli.requests()).slice(before);
  return { ...result, requests };
}

const system = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.system ?? "");

describe("tandem with MCP servers", { timeout: 60_000 }, () => {
  it("--mcp-config: the model calls a server's tool and gets its result (--auto-approve mcp)", async () => {
    const ws = await cli.workspace();
    const file = await configFile(join(ws, "..", "cfg-a"), "servers.json", { everything: EVERYTHING });
    const r = await run(["--cwd", ws, "--mcp-config", file, "--auto-approve", "mcp", "Echo"], [useMcp("everything", "echo", '{"message": "via the cli"}'), done]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("[use_mcp_tool] everything/echo");
    expect(requestText(r.requests[1] as RecordedRequest)).toContain("Echo: via the cli");
    expect(system(r.requests[0])).toContain("echo(message: string)");
  });

  it("unattended without the mcp switch: refused, with the switch to add (exit 3)", async () => {
    const ws = await cli.workspace();
    const file = await configFile(join(ws, "..", "cfg-b"), "servers.json", { everything: EVERYTHING });
    const r = await run(["--cwd", ws, "--mcp-config", file, "Echo"], [useMcp("everything", "echo", '{"message": "x"}'), done]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("use_mcp_tool everything/echo needs approval");
    expect(r.stderr).toContain("--auto-approve mcp");
  });

  it("reads the default global file under XDG_DATA_HOME; --no-mcp starts nothing and offers no MCP tools", async () => {
    const ws = await cli.workspace();
    const dataHome = join(ws, "..", "xdg");
    await configFile(join(dataHome, "tandem"), "tandem_mcp_settings.json", { everything: EVERYTHING });
    const withFile = await run(["--cwd", ws, "--yolo", "Sum"], [useMcp("everything", "get-sum", '{"a": 1, "b": 2}'), done], { XDG_DATA_HOME: dataHome });
    expect(withFile.code, withFile.stderr).toBe(0);
    expect(requestText(withFile.requests[1] as RecordedRequest)).toContain("3");
    const without = await run(["--cwd", ws, "--yolo", "--no-mcp", "Nothing"], [done], { XDG_DATA_HOME: dataHome });
    expect(without.code).toBe(0);
    expect(system(without.requests[0])).not.toContain("use_mcp_tool");
    expect(system(without.requests[0])).not.toContain("MCP SERVERS");
  });

  it("the workspace's .tandem/mcp.json starts only with --trust-workspace, and says so once otherwise", async () => {
    const ws = await cli.workspace();
    await configFile(join(ws, ".tandem"), "mcp.json", { shipped: EVERYTHING });
    const env = { XDG_DATA_HOME: join(ws, "..", "empty-xdg") };
    const untrusted = await run(["--cwd", ws, "--yolo", "Look"], [done], env);
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr.match(/names MCP servers \(shipped\); they are not started/g)).toHaveLength(1);
    expect(untrusted.stderr).toContain("--trust-workspace");
    expect(system(untrusted.requests[0])).not.toContain("## shipped");
    const trusted = await run(["--cwd", ws, "--yolo", "--trust-workspace", "Use it"], [useMcp("shipped", "echo", '{"message": "trusted"}'), done], env);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stderr).not.toContain("they are not started");
    expect(requestText(trusted.requests[1] as RecordedRequest)).toContain("Echo: trusted");
  });

  it("server-filesystem and server-memory: the model reads a workspace file and keeps a memory, and gets both back", async () => {
    const ws = await cli.workspace();
    await writeFile(join(ws, "notes.txt"), "the workspace's own words");
    const memoryFile = join(ws, "..", "memory.jsonl");
    const file = await configFile(join(ws, "..", "cfg-fs"), "servers.json", {
      // No folder on its command line: it serves the roots Tandem offers (the workspace).
      filesystem: { command: process.execPath, args: [serverScript("server-filesystem")] },
      memory: { command: process.execPath, args: [serverScript("server-memory")], env: { MEMORY_FILE_PATH: memoryFile } },
    });
    const entity = JSON.stringify({ entities: [{ name: "Tandem", entityType: "project", observations: ["reads through MCP"] }] });
    const r = await run(
      ["--cwd", ws, "--yolo", "--mcp-config", file, "Read and remember"],
      [
        useMcp("filesystem", "read_text_file", JSON.stringify({ path: join(ws, "notes.txt") })),
        useMcp("filesystem", "read_text_file", '{"path": "/etc/hostname"}'),
        useMcp("memory", "create_entities", entity),
        useMcp("memory", "read_graph", "{}"),
        done,
      ],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(system(r.requests[0])).toContain("read_text_file(");
    expect(requestText(r.requests[1] as RecordedRequest)).toContain("the workspace's own words");
    // Outside the roots: the server refuses, and the model is told it is an error.
    expect(requestText(r.requests[2] as RecordedRequest)).toContain("Access denied - path outside allowed directories: /etc/hostname");
    expect(requestText(r.requests[4] as RecordedRequest)).toContain("reads through MCP");
  });

  it("leaves no server running after the run", async () => {
    const ws = await cli.workspace();
    const file = await configFile(join(ws, "..", "cfg-c"), "servers.json", { tools: { command: process.execPath, args: [fixture("tool-server.mjs")] } });
    const r = await run(["--cwd", ws, "--yolo", "--mcp-config", file, "Pid"], [useMcp("tools", "pid", "{}"), done]);
    expect(r.code, r.stderr).toBe(0);
    const pid = Number(/"text":"(\d+)"/.exec(requestText(r.requests[1] as RecordedRequest))?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
  });

  it('"sandbox": true runs the server in the run\'s sandbox: HOME\'s keys stay unreadable; with --sandbox off it does not start', async () => {
    const ws = await cli.workspace();
    await mkdir(join(cli.dir, ".ssh"), { recursive: true });
    await writeFile(join(cli.dir, ".ssh", "id_rsa"), "CLI-SSH-MARKER\n");
    const file = await configFile(join(ws, "..", "cfg-sbx"), "servers.json", { probe: { command: process.execPath, args: [fixture("probe-server.mjs")], sandbox: true } });
    const readKey = useMcp("probe", "read-file", JSON.stringify({ path: join(cli.dir, ".ssh", "id_rsa") }));
    const writeHere = useMcp("probe", "write-file", JSON.stringify({ path: join(ws, "made.txt"), text: "by the server" }));
    const r = await run(["--cwd", ws, "--yolo", "--mcp-config", file, "Probe"], [readKey, writeHere, done]);
    expect(r.code, r.stderr).toBe(0);
    expect(requestText(r.requests[1] as RecordedRequest)).not.toContain("CLI-SSH-MARKER");
    expect(requestText(r.requests[1] as RecordedRequest)).toMatch(/ENOENT|EACCES|denied/);
    expect(requestText(r.requests[2] as RecordedRequest)).toContain("written");
    expect(await readFile(join(ws, "made.txt"), "utf8")).toBe("by the server");
    const off = await run(["--cwd", ws, "--yolo", "--sandbox", "off", "--mcp-config", file, "Probe"], [readKey, done]);
    expect(requestText(off.requests[1] as RecordedRequest)).not.toContain("CLI-SSH-MARKER");
    expect(requestText(off.requests[1] as RecordedRequest)).toContain('switched off (its mode is \\"off\\")');
  });

  it("bounds what a flooding server lists and says before it reaches the model: 3,000 tools, a 10 MB resource name, 10 MB answers and errors", async () => {
    const ws = await cli.workspace();
    const file = await configFile(join(ws, "..", "cfg-flood"), "servers.json", { flood: { command: process.execPath, args: [fixture("flood-server.mjs")] } });
    const readResource = { text: "<access_mcp_resource>\n<server_name>flood</server_name>\n<uri>demo://r/0</uri>\n</access_mcp_resource>" };
    const r = await run(
      ["--cwd", ws, "--yolo", "--sandbox", "off", "--mcp-config", file, "Flood"],
      [useMcp("flood", "fail-loudly", "{}"), readResource, useMcp("flood", "tool-2999", '{"value": "a"}'), useMcp("flood", "needs-count", '{"count": "many"}'), done],
    );
    expect(r.code, r.stderr).toBe(0);
    const sizes = r.requests.map((request) => JSON.stringify(request.body).length);
    // Every request stays far below the 10 MB the server sent; the tools past the budget go by name.
    for (const size of sizes) expect(size).toBeLessThan(200_000);
    const prompt = system(r.requests[0]);
    expect(prompt).toContain("- needs-count(count: number) — Takes a count; FULL-DESCRIPTION-MARKER.");
    expect(prompt).toMatch(/Also, by name only .*tool-\d+, tool-\d+/);
    expect(prompt).toMatch(/… and \d+ more tools, not listed/);
    expect(prompt).not.toContain("d".repeat(1000));
    expect(prompt).not.toContain("u".repeat(1000));
    // The error, the resource and a wrong call each arrive, bounded or with what the model needs.
    expect(requestText(r.requests[1]!)).toMatch(/more characters of the error not shown/);
    expect(requestText(r.requests[2]!)).toMatch(/x{1000}/);
    // The person can still read all of the resource: the task keeps it whole, and the CLI says where.
    const whole = /the whole of it \(([\d,]+) characters\) is in (\S+?)\)/.exec(r.stdout);
    expect(whole, r.stdout).not.toBeNull();
    expect(whole?.[1]).toBe((10 * 1024 * 1024).toLocaleString("en-US"));
    expect(await readFile(whole?.[2] as string, "utf8")).toBe("x".repeat(10 * 1024 * 1024));
    expect(requestText(r.requests[3]!)).toContain("ran tool-2999");
    expect(requestText(r.requests[4]!)).toMatch(/invalid arguments for flood\/needs-count: .*count must be number.*The tool: needs-count\(count: number\) — Takes a count; FULL-DESCRIPTION-MARKER\./s);
    console.log(`flooding MCP server: requests of ${sizes.map((n) => `${Math.round(n / 1024)} KB`).join(", ")}`);
  });

  it("a --mcp-config file that is not there is a usage error (64)", async () => {
    const ws = await cli.workspace();
    const r = await cli.run(["--cwd", ws, "--mcp-config", join(ws, "nope.json"), "x"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("--mcp-config");
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
