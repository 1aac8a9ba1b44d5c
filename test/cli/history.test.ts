/**
 * Saved tasks through the shipped CLI (dist/cli.js and its cli-history.js): `--list-tasks` as JSON,
 * searched (the conversation, not only the prompt), sorted and across workspaces; the index rebuilt
 * from the task folders when it is deleted, every task back with its totals, status, workspace and
 * start; `tandem export` to stdout or a file, and a clear refusal of what cannot be exported.
 */
import { mkdir, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tandemDataFolder, taskFolder, taskHistoryFile, workspaceStorageRoot } from "../../src/core/storage/paths";
import type { HistoryItem } from "../../src/shared/protocol";
import type { ScriptTurn } from "../support/script";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
let here: string;
let elsewhere: string;
const ids: Record<string, string> = {};

const answer = (text: string, inputTokens: number): ScriptTurn[] => [
  { text: `${text}\n<list_files>\n<path>.</path>\n</list_files>`, usage: { inputTokens, outputTokens: 50 } },
  { text: `<attempt_completion>\n<result>${text} Done.</result>\n</attempt_completion>`, usage: { inputTokens: inputTokens + 100, outputTokens: 20 } },
];

async function runTask(workspace: string, prompt: string, turns: ScriptTurn[]): Promise<string> {
  await cli.script(turns);
  const run = await cli.run(["--yolo", "--no-checkpoints", "--cwd", workspace, prompt], { killAfterMs: 30_000 });
  await cli.dropScript();
  expect(run.code, run.stderr).toBe(0);
  return (await listed(workspace)).find((item) => item.text === prompt)!.id;
}

async function listed(workspace: string, ...args: string[]): Promise<(HistoryItem & { match?: { field: string; snippet?: string } })[]> {
  const run = await cli.run(["--list-tasks", "--json", "--cwd", workspace, ...args]);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout.trim() ? run.stdout.trim().split("\n").map((line) => JSON.parse(line) as HistoryItem) : [];
}

beforeAll(async () => {
  cli = await startCliHarness();
  here = await realpath(await cli.workspace());
  elsewhere = await realpath(await cli.workspace());
  ids.cheap = await runTask(here, "Rename the config loader", answer("I renamed it in three files.", 1_000));
  ids.dear = await runTask(here, "Speed up the build", answer("Switched the bundler to esbuild; the zebra test is gone.", 90_000));
  ids.other = await runTask(elsewhere, "Tidy the docs", answer("The docs are tidy.", 500));
}, 120_000);
afterAll(() => cli?.close());

describe("tandem --list-tasks", { timeout: 60_000 }, () => {
  it("prints this workspace's tasks as JSON, each with its status, totals, workspace and start", async () => {
    const items = await listed(here);
    expect(items.map((i) => i.id)).toEqual([ids.dear, ids.cheap]);
    for (const item of items) {
      expect(item).toMatchObject({ status: "completed", workspace: here });
      expect(item.usage.tokensIn).toBeGreaterThan(0);
      expect(item.usage.cost).toBeGreaterThan(0);
    }
    // The run left beside its chat what a lost index and the search need: its entry, and its digest.
    const folder = taskFolder(workspaceStorageRoot(tandemDataFolder({ HOME: cli.dir }), here), ids.dear!);
    expect(JSON.parse(await readFile(join(folder, "history_item.json"), "utf8"))).toMatchObject({ id: ids.dear, status: "completed", workspace: here });
    expect(await readFile(join(folder, "search_digest.txt"), "utf8")).toContain("the zebra test is gone. Done.");
    expect((await listed(here, "--sort", "oldest")).map((i) => i.id)).toEqual([ids.cheap, ids.dear]);
    expect((await listed(here, "--sort", "cost")).map((i) => i.id)).toEqual([ids.dear, ids.cheap]);
  });

  it("searches the conversation, not only the prompt, and says where it matched", async () => {
    const found = await listed(here, "--search", "zebra");
    expect(found.map((i) => [i.id, i.match?.field])).toEqual([[ids.dear, "conversation"]]);
    expect(found[0]?.match?.snippet).toContain("zebra");
    expect((await listed(here, "--search", "config")).map((i) => [i.id, i.match?.field])).toEqual([[ids.cheap, "text"]]);
    const text = await cli.run(["--list-tasks", "--search", "esbuild", "--cwd", here]);
    expect(text.stdout).toMatch(/matching "esbuild", best match first/);
    expect(text.stdout).toMatch(/^ {4}tandem: .*esbuild/m);
    expect((await cli.run(["--list-tasks", "--search", "nothing-like-it", "--cwd", here])).stdout).toMatch(/No saved task for .* matches "nothing-like-it"/);
  });

  it("lists every workspace's tasks with --all-workspaces, each naming its workspace", async () => {
    expect((await listed(here, "--all-workspaces")).map((i) => i.id).sort()).toEqual([ids.cheap, ids.dear, ids.other].sort());
    expect((await listed(here, "--all-workspaces", "--search", "docs")).map((i) => i.id)).toEqual([ids.other]);
    const text = await cli.run(["--list-tasks", "--all-workspaces", "--cwd", here]);
    expect(text.stdout).toContain(`Tidy the docs  (${elsewhere})`);
  });

  it("rebuilds a deleted or unreadable index from the task folders: every task back with its totals, status, workspace and start", async () => {
    const before = await listed(here);
    const root = workspaceStorageRoot(tandemDataFolder({ HOME: cli.dir }), here);
    await rm(taskHistoryFile(root));
    expect(await listed(here)).toEqual(before);
    await writeFile(taskHistoryFile(root), "[{broken");
    const run = await cli.run(["--list-tasks", "--json", "--cwd", here]);
    expect(run.stderr).toMatch(/task history index .* is unreadable .* rebuilt from the task folders/);
    expect(run.stdout.trim().split("\n").map((line) => JSON.parse(line) as HistoryItem)).toEqual(before);
    // A listing only reads: the broken file stays until a task's run writes the index again.
    expect(await readFile(taskHistoryFile(root), "utf8")).toBe("[{broken");
    await rm(taskHistoryFile(root));
  });
});

describe("tandem export", { timeout: 60_000 }, () => {
  it("prints a task as Markdown: the conversation, the tool calls, each request's cost and the totals", async () => {
    const run = await cli.run(["export", ids.dear!.slice(0, 8), "--cwd", here]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^# Speed up the build\n/);
    expect(run.stdout).toContain(`| Task | \`${ids.dear}\` |`);
    expect(run.stdout).toContain("### Tandem\n\nSwitched the bundler to esbuild; the zebra test is gone.");
    expect(run.stdout).toMatch(/#### Tool `list_files` · `\.` · done\n\nResult:\n\n```\n/);
    expect(run.stdout).toMatch(/\*Request 1: 90,000 tokens in, 50 out, .*\$\d+\.\d{4} \(completed\)\*/);
    expect(run.stdout).toMatch(/## Totals\n\n2 requests: 180,100 tokens in, 70 out, /);
  });

  it("writes the file --output names, finds a task of another workspace, and refuses what it cannot export", async () => {
    const file = join(here, "out", "task.md");
    await mkdir(join(here, "out"));
    const written = await cli.run(["export", ids.other!, "--output", "out/task.md"], { cwd: here });
    expect([written.code, written.stdout, written.stderr]).toEqual([0, "", `Exported task ${ids.other} to ${file}.\n`]);
    expect(await readFile(file, "utf8")).toMatch(/^# Tidy the docs\n/);

    const unknown = await cli.run(["export", "no-such-task", "--cwd", here]);
    expect([unknown.code, unknown.stdout]).toEqual([64, ""]);
    expect(unknown.stderr).toMatch(/^tandem: No saved task "no-such-task" in this workspace: --list-tasks shows them\. No other workspace has it either\.\n$/);

    const root = workspaceStorageRoot(tandemDataFolder({ HOME: cli.dir }), here);
    const folder = taskFolder(root, ids.cheap!);
    expect(await readdir(folder)).toContain("ui_messages.jsonl");
    await writeFile(join(folder, "ui_messages.jsonl"), "not json\n{\n");
    const damaged = await cli.run(["export", ids.cheap!, "--cwd", here]);
    expect([damaged.code, damaged.stdout]).toEqual([1, ""]);
    expect(damaged.stderr).toMatch(/^tandem: Task history file .*ui_messages\.jsonl is damaged at line 1: /);
    const nowhere = await cli.run(["export", ids.dear!, "--output", join(here, "missing", "x.md"), "--cwd", here]);
    expect([nowhere.code, nowhere.stderr]).toEqual([1, `tandem: Cannot write ${join(here, "missing", "x.md")}: its folder does not exist.\n`]);
  });
});
