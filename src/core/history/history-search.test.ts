/**
 * History's search over real saved tasks: the conversation is searched, not only the prompt; the
 * first search loads the digests and later ones read no file; a longer query narrows without losing
 * a match; a task that changed is searched as it is now.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { ChatMessage } from "../../shared/messages";
import { ZERO_USAGE } from "../../shared/usage";
import { tasksFolder } from "../storage/paths";
import { TaskHistory } from "../storage/task-history";
import { TaskStorage } from "../storage/task-storage";
import { HistorySearch } from "./history-search";
import { TaskDigests } from "./task-digests";
import { RANK } from "./text-match";

let root: string;
/** Digests made in the background are written before the folder goes. */
let open: TaskDigests[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "tandem-search-"));
  open = [];
});
afterEach(async () => {
  await Promise.all(open.map((digests) => digests.flush()));
  await rm(root, { recursive: true, force: true });
});

const fail = (error: unknown) => {
  throw error;
};
const chatOf = (task: string, ...words: string[]): ChatMessage[] => [
  { ts: 1, type: "say", say: "task", text: task },
  ...words.map((text, i): ChatMessage => ({ ts: i + 2, type: "say", say: i % 2 ? "user_feedback" : "text", text })),
];

async function saved(tasks: Record<string, ChatMessage[]>): Promise<{ history: TaskHistory; digests: TaskDigests; search: HistorySearch }> {
  const history = new TaskHistory(root, fail);
  let startedAt = 0;
  for (const [id, chat] of Object.entries(tasks)) {
    await new TaskStorage(root, id).saveChatMessages(chat);
    await history.upsert({ id, text: chat[0]?.text ?? "", startedAt: ++startedAt, usage: ZERO_USAGE });
  }
  await history.flush();
  // A fresh host: nothing in memory, as after a reload.
  const fresh = new TaskHistory(root, fail);
  const digests = new TaskDigests(root, fail);
  open.push(digests);
  return { history: fresh, digests, search: new HistorySearch(fresh, digests) };
}

it("finds a task by what was said in its conversation, with the words around the match", async () => {
  const { search } = await saved({
    build: chatOf("Make the build faster", "I switched the bundler to esbuild.", "Keep the source maps please"),
    retry: chatOf("Add a retry to the fetcher", "Done: three attempts with backoff."),
  });
  const [match, ...rest] = (await search.search("source maps")).matches;
  expect(rest).toEqual([]);
  expect(match).toMatchObject({ id: "build", field: "conversation", rank: RANK.conversationSubstring, snippet: { text: "Keep the source maps please", by: "person" } });
  expect(match?.ranges).toEqual([[9, 20]]);
  // The prompt's own match ranks above the conversation's.
  expect((await search.search("retry")).matches.map((m) => [m.id, m.field])).toEqual([["retry", "text"]]);
  // "b" starts a word of the build task's prompt, and is only in the retry task's conversation.
  expect((await search.search("b")).matches.map((m) => m.id)).toEqual(["build", "retry"]);
  expect((await search.search("   ")).matches).toEqual([]);
});

it("reads files for the first search only: every keystroke after it is answered from memory", async () => {
  const { search, digests } = await saved({ build: chatOf("Make the build faster", "I switched the bundler to esbuild.") });
  expect((await search.search("e")).matches.length).toBe(1);
  await digests.flush();
  await rm(tasksFolder(root), { recursive: true });
  for (const query of ["es", "esb", "esbu", "esbuild", "esbuilt", "esbuil"]) {
    expect((await search.search(query)).matches.map((m) => m.id), query).toEqual(query === "esbuilt" ? [] : ["build"]);
  }
});

it("narrows a longer query among the last matches without losing one, and searches a task as it is now", async () => {
  const { search, digests, history } = await saved({
    a: chatOf("Fix the parser", "The tokenizer was wrong."),
    b: chatOf("Tidy the docs", "Fixed the parser docs too."),
  });
  expect((await search.search("pars")).matches.map((m) => m.id).sort()).toEqual(["a", "b"]);
  expect((await search.search("parser d")).matches.map((m) => m.id)).toEqual(["b"]);
  // The task goes on: what it says now is searched, though "parser" narrowed to b before.
  digests.update("a", chatOf("Fix the parser", "The tokenizer was wrong.", "And the parser docs?"));
  expect((await search.search("parser do")).matches.map((m) => m.id).sort()).toEqual(["a", "b"]);
  // A new task is searched too.
  await history.upsert({ id: "c", text: "parser docs again", startedAt: 9, usage: ZERO_USAGE });
  expect((await search.search("parser doc")).matches.map((m) => m.id)).toEqual(["c", "b", "a"]);
});

it("searches one workspace's tasks when asked, and narrows within that scope only", async () => {
  const { search, history } = await saved({ a: chatOf("Fix the parser"), b: chatOf("Fix the printer") });
  await history.amend("a", { workspace: "/w/app" });
  await history.amend("b", { workspace: "/w/other" });
  const mine = { scope: "workspace", root: "/w/app" } as const;
  expect((await search.search("fix", { scope: mine })).matches.map((m) => m.id)).toEqual(["a"]);
  // The same query, every workspace: not narrowed from the one workspace's matches.
  expect((await search.search("fix", { scope: { scope: "all", root: "/w/app" } })).matches.map((m) => m.id)).toEqual(["b", "a"]);
  expect((await search.search("fix p", { scope: mine })).matches.map((m) => m.id)).toEqual(["a"]);
});

it("makes whole (with its snippet) only the best matches asked for, and counts them all", async () => {
  const { search } = await saved({ a: chatOf("One", "the parser"), b: chatOf("Two", "the parser"), c: chatOf("Three", "the parser") });
  const { matches, total } = await search.search("parser", { limit: 2 });
  expect([matches.map((m) => m.id), total]).toEqual([["c", "b"], 3]);
  expect(matches.every((m) => m.snippet?.text === "the parser")).toBe(true);
});

it("makes a digest from the chat of a task saved before digests existed, and writes it", async () => {
  const { search, digests } = await saved({ old: chatOf("An old task", "It used webpack.") });
  expect((await search.search("webpack")).matches.map((m) => m.id)).toEqual(["old"]);
  await digests.flush();
  const again = new TaskDigests(root, fail);
  await rm(join(tasksFolder(root), "old", "ui_messages.jsonl"));
  await again.load(["old"]);
  expect(again.get("old")).toContain("It used webpack.");
});
