/**
 * The saved-task index: an index written by an older Tandem still lists its tasks with their
 * totals, in today's one `usage` shape; an unreadable index is reported and replaced, never fatal.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { TaskHistory } from "../../src/core/storage/task-history";

let root: string;
let errors: string[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "tandem-history-"));
  errors = [];
});

afterEach(() => rm(root, { recursive: true, force: true }));

const open = () => new TaskHistory(root, (error) => errors.push(String(error)));

it("reads an index written before the totals were one usage object", async () => {
  const old = [
    { id: "a", text: "Old task", startedAt: 1, totalCost: 0.5, tokensIn: 100, tokensOut: 20, cacheWrites: 7, cacheReads: 9, status: "completed" },
    { id: "b", text: "Older task", startedAt: 0, totalCost: 0.25, tokensIn: 10, tokensOut: 2 },
  ];
  await writeFile(join(root, "task_history.json"), JSON.stringify(old));
  const history = open();
  expect(await history.list()).toEqual([
    { id: "a", text: "Old task", startedAt: 1, status: "completed", usage: { tokensIn: 100, tokensOut: 20, cacheWrites: 7, cacheReads: 9, cost: 0.5 } },
    { id: "b", text: "Older task", startedAt: 0, usage: { tokensIn: 10, tokensOut: 2, cacheWrites: 0, cacheReads: 0, cost: 0.25 } },
  ]);
  // The next write stores today's shape only.
  await history.amend("b", { status: "cancelled" });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const written = JSON.parse(await readFile(join(root, "task_history.json"), "utf8")) as Record<string, unknown>[];
  expect(written.map((item) => Object.keys(item).sort())).toEqual([
    ["id", "startedAt", "status", "text", "usage"],
    ["id", "startedAt", "status", "text", "usage"],
  ]);
  expect(errors).toEqual([]);
});

it("reports an unreadable index and starts a new one", async () => {
  await writeFile(join(root, "task_history.json"), "{not json");
  expect(await open().list()).toEqual([]);
  expect(errors[0]).toMatch(/task history index .* is unreadable/);
});
