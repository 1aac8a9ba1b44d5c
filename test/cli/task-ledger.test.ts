/**
 * The task ledger through the CLI bundle, in YOLO with the OS sandbox on: a scripted model writes
 * a file, edits it, runs two commands (the second fails with exit code 3) and completes. The CLI
 * prints what the task touched, exactly that, with the result; with --json, the ledger row carries
 * the same facts. The hosts sandboxed commands reached come from the sandbox's proxy.
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatMessage } from "../../src/shared/messages";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;

beforeAll(async () => {
  cli = await startCliHarness();
});

afterAll(async () => {
  await cli?.close();
});

const TURNS = [
  { text: "<write_to_file>\n<path>notes.txt</path>\n<content>first line\n</content>\n</write_to_file>" },
  { text: "<replace_in_file>\n<path>notes.txt</path>\n<diff>\n------- SEARCH\nfirst line\n=======\nedited line\n+++++++ REPLACE\n</diff>\n</replace_in_file>" },
  { text: "<execute_command>\n<command>cat notes.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
  { text: "<execute_command>\n<command>exit 3</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
  { text: "<attempt_completion>\n<result>Wrote and checked the notes.</result>\n</attempt_completion>" },
];

/** The lines of one section of the printed ledger ("Files written:" and its "  - " items). */
function section(stdout: string, title: string): string[] {
  const lines = stdout.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`${title}:`));
  expect(start, `${title} in\n${stdout}`).toBeGreaterThanOrEqual(0);
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("  - ")) break;
    items.push(line.slice(4));
  }
  return items;
}

it("prints what the task touched: the files written, each command with its exit code and confinement, no hosts", async () => {
  const workspace = await cli.workspace();
  await cli.script(TURNS);
  const run = await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "on", "--no-storage", "Write the notes"]);
  expect(run.code, run.stderr).toBe(0);
  expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("edited line\n");
  expect(run.stdout).toContain("[ledger] What the task touched");
  expect(section(run.stdout, "Files written")).toEqual(["notes.txt"]);
  expect(section(run.stdout, "Commands run")).toEqual(["cat notes.txt (exit code 0, sandboxed)", "exit 3 (exit code 3, sandboxed)"]);
  expect(run.stdout).toContain("Hosts contacted: none");
  expect(run.stdout).toContain("MCP servers used: none");
});

it("carries the ledger in the --json output, equal to what happened", async () => {
  const workspace = await cli.workspace();
  await cli.script(TURNS);
  const run = await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "on", "--no-storage", "--json", "Write the notes"]);
  expect(run.code, run.stderr).toBe(0);
  const rows = run.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as ChatMessage);
  const ledgers = rows.filter((row) => row.type === "say" && row.say === "task_ledger");
  expect(ledgers).toHaveLength(1);
  expect(ledgers[0]?.ledger).toEqual({
    files: ["notes.txt"],
    commands: [
      { command: "cat notes.txt", sandbox: "sandboxed", end: { kind: "exited", code: 0 } },
      { command: "exit 3", sandbox: "sandboxed", end: { kind: "exited", code: 3 } },
    ],
    hosts: [],
    mcpServers: [],
  });
  // Shown with the result, just before it (the panel clears the chat as the person accepts it).
  expect(rows.indexOf(ledgers[0] as ChatMessage) + 1).toBe(rows.findIndex((row) => row.type === "say" && row.say === "completion_result"));
});

it("goes on, in a task resumed with a reply, from what the earlier run touched", async () => {
  const workspace = await cli.workspace();
  await cli.script(TURNS);
  const first = await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "on", "Write the notes"]);
  expect(first.code, first.stderr).toBe(0);
  await cli.script([
    { text: "<write_to_file>\n<path>more.txt</path>\n<content>more\n</content>\n</write_to_file>" },
    { text: "<attempt_completion>\n<result>Added more.</result>\n</attempt_completion>" },
  ]);
  const resumed = await cli.run(["--resume", "last", "--cwd", workspace, "--yolo", "--sandbox", "on", "Add more."]);
  expect(resumed.code, resumed.stderr).toBe(0);
  const printed = resumed.stdout.slice(resumed.stdout.lastIndexOf("[ledger]"));
  expect(section(printed, "Files written")).toEqual(["notes.txt", "more.txt"]);
  expect(section(printed, "Commands run")).toEqual(["cat notes.txt (exit code 0, sandboxed)", "exit 3 (exit code 3, sandboxed)"]);
});

it("with checkpoints, lists apart the files a command changed, from what differs since the task began", async () => {
  const workspace = await cli.workspace();
  await cli.script([
    TURNS[0] as (typeof TURNS)[number],
    { text: "<execute_command>\n<command>echo made > by-command.txt; exit 3</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
    TURNS[4] as (typeof TURNS)[number],
  ]);
  const run = await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "on", "Write the notes"]);
  expect(run.code, run.stderr).toBe(0);
  expect(section(run.stdout, "Files written")).toEqual(["notes.txt"]);
  expect(section(run.stdout, "Files changed otherwise since the task began (by commands, or outside Tandem)")).toEqual(["by-command.txt"]);
  expect(section(run.stdout, "Commands run")).toEqual(["echo made > by-command.txt; exit 3 (exit code 3, sandboxed)"]);
});

it("resumed, still lists what a command of the earlier run changed: the checkpoints compare with the task's first", async () => {
  const workspace = await cli.workspace();
  await cli.script([
    { text: "<execute_command>\n<command>echo made > by-command.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
    TURNS[4] as (typeof TURNS)[number],
  ]);
  const first = await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "on", "Make it"]);
  expect(first.code, first.stderr).toBe(0);
  await cli.script([TURNS[0] as (typeof TURNS)[number], TURNS[4] as (typeof TURNS)[number]]);
  const resumed = await cli.run(["--resume", "last", "--cwd", workspace, "--yolo", "--sandbox", "on", "Now the notes."]);
  expect(resumed.code, resumed.stderr).toBe(0);
  const printed = resumed.stdout.slice(resumed.stdout.lastIndexOf("[ledger]"));
  expect(section(printed, "Files written")).toEqual(["notes.txt"]);
  expect(section(printed, "Files changed otherwise since the task began (by commands, or outside Tandem)")).toEqual(["by-command.txt"]);
});

it("lists the hosts sandboxed commands reached through the allow list, and not the ones the sandbox refused", async () => {
  const served: string[] = [];
  const server = createServer((request, response) => {
    served.push(request.url ?? "");
    response.end("reached\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    const workspace = await cli.workspace();
    const curl = (host: string) => `curl -sS -m 10 --noproxy '' http://${host}:${port}/from-${host}`;
    await cli.script([
      { text: `<execute_command>\n<command>${curl("127.0.0.1")}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` },
      // Not on the list: refused by the proxy, so never contacted.
      { text: `<execute_command>\n<command>${curl("127.0.0.2")}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` },
      TURNS[4] as (typeof TURNS)[number],
    ]);
    const run = await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "on", "--sandbox-allow-domain", "127.0.0.1", "--no-storage", "Fetch"]);
    expect(run.code, run.stderr).toBe(0);
    expect(served).toEqual(["/from-127.0.0.1"]);
    expect(section(run.stdout, "Hosts contacted")).toEqual([`127.0.0.1:${port}`]);
  } finally {
    server.close();
  }
});
