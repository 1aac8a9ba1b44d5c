import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiMessage } from "../../api/types";
import type { ChatMessage } from "../../shared/messages";
import type { WriteStats } from "./atomic-write";
import { TaskStorage, type TaskStorageOptions } from "./task-storage";

let root: string;
beforeEach(async () => (root = await mkdtemp(path.join(tmpdir(), "tandem-journal-"))));
afterEach(() => rm(root, { recursive: true, force: true }));

const say = (ts: number, text: string): ChatMessage => ({ ts, type: "say", say: "text", text });
const user = (text: string): ApiMessage => ({ role: "user", content: [{ type: "text", text }] });

/** A chat kept in memory as MessageState keeps it, with its journal. */
function chatOf(options: TaskStorageOptions = {}) {
  const storage = new TaskStorage(root, "t1", options);
  const chat: ChatMessage[] = [];
  const errors: unknown[] = [];
  const journal = storage.chatJournal(() => chat, (error) => errors.push(error));
  const file = path.join(storage.dir, "ui_messages.jsonl");
  return { storage, chat, journal, errors, file };
}

describe("the task journal", () => {
  it("replays pushes, replacements, removals and resets into the list as it was", async () => {
    const { storage, chat, journal, errors } = chatOf();
    for (const m of [say(1, "a"), say(2, "b"), say(3, "c")]) {
      chat.push(m);
      journal.append({ push: m });
    }
    (chat[1] as ChatMessage).text = "b, finished";
    journal.append({ set: chat[1] as ChatMessage });
    chat.splice(0, 1);
    journal.append({ drop: [1] });
    expect(await storage.loadChatMessages()).toEqual(chat);

    const resumed = [say(2, "b, finished"), say(4, "d")];
    chat.splice(0, chat.length, ...resumed);
    journal.append({ reset: chat });
    await journal.flush();
    expect(await storage.loadChatMessages()).toEqual(resumed);
    expect(errors).toEqual([]);
  });

  it("ignores a last line a kill cut short, and cuts it off before the next session appends", async () => {
    const first = chatOf();
    first.chat.push(say(1, "kept"));
    first.journal.append({ push: say(1, "kept") });
    appendFileSync(first.file, '{"push":{"ts":2,"type":"say","say":"te');
    expect(await first.storage.loadChatMessages()).toEqual([say(1, "kept")]);

    const next = chatOf();
    next.chat.push(say(1, "kept"), say(3, "after"));
    next.journal.append({ push: say(3, "after") });
    expect(await next.storage.loadChatMessages()).toEqual([say(1, "kept"), say(3, "after")]);
    const text = readFileSync(next.file, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(text.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown)).toHaveLength(2);
  });

  it("refuses a damaged line in the middle with an error naming the file and line", async () => {
    const { storage, journal, file } = chatOf();
    journal.append({ push: say(1, "a") });
    appendFileSync(file, "{not json\n");
    journal.append({ push: say(2, "b") });
    await expect(storage.loadChatMessages()).rejects.toThrow(/ui_messages\.jsonl is damaged at line 2/);
  });

  it("refuses an entry it does not know, as from a newer version", async () => {
    const { storage, file } = chatOf();
    await mkdir(storage.dir, { recursive: true });
    writeFileSync(file, '{"push":{"ts":1,"type":"say","say":"text"}}\n{"splice":[0,1]}\n');
    await expect(storage.loadChatMessages()).rejects.toThrow(/line 2 \(written by a newer version\?\)/);
  });

  it("compacts when replaced lines outweigh the list, so the file and the bytes written stay in proportion", async () => {
    const stats: WriteStats = { bytes: 0, fsyncs: 0 };
    const { storage, chat, journal, file } = chatOf({ stats, slackBytes: 1024 });
    for (let ts = 1; ts <= 20; ts++) {
      chat.push(say(ts, "x".repeat(100)));
      journal.append({ push: chat.at(-1) as ChatMessage });
    }
    let appended = 0;
    for (let round = 0; round < 500; round++) {
      const m = chat[round % chat.length] as ChatMessage;
      m.text = `round ${round} `.padEnd(100, "y");
      journal.append({ set: m });
      appended += JSON.stringify({ set: m }).length + 1;
      // A round's end: a compaction in flight (its fsync takes what the disk takes) finishes here.
      if (round % 10 === 9) await journal.flush();
    }
    await journal.flush();
    const live = JSON.stringify({ reset: chat }).length;
    expect(await storage.loadChatMessages()).toEqual(chat);
    expect(readFileSync(file, "utf8").startsWith('{"reset":')).toBe(true);
    // Superseded lines are let grow to the list's size (plus 1 KB) before a compaction drops them.
    expect(statSync(file).size).toBeLessThanOrEqual(2 * live + 1024 + 200);
    // 500 replacements of ~120 bytes: about that, plus one compaction per list's worth of them.
    expect(stats.bytes).toBeLessThan(2.5 * appended);
    expect(stats.bytes).toBeGreaterThan(appended);
  });

  it("keeps the changes made while a compaction is being written", async () => {
    const { storage, chat, journal, file } = chatOf({ compactFactor: 0, slackBytes: 0 });
    chat.push(say(1, "a"));
    journal.append({ push: say(1, "a") });
    chat[0] = say(1, "a2");
    journal.append({ set: chat[0] }); // supersedes a line: a compaction starts
    for (let ts = 2; ts <= 50; ts++) {
      chat.push(say(ts, `m${ts}`));
      journal.append({ push: chat.at(-1) as ChatMessage });
    }
    await journal.flush();
    expect(await storage.loadChatMessages()).toEqual(chat);
    expect(readFileSync(file, "utf8")).not.toContain('"text":"a"}');
    expect(await readdir(storage.dir)).toEqual(["ui_messages.jsonl"]);
  });

  it("loads a task saved whole by an older version, and moves it into the journal at its first change", async () => {
    const storage = new TaskStorage(root, "old");
    await mkdir(storage.dir, { recursive: true });
    const oldChat = [say(1, "task"), say(2, "answer")];
    const oldApi = [user("<task>\nold\n</task>"), { role: "assistant", content: [{ type: "text", text: "ok" }] } as ApiMessage];
    await writeFile(path.join(storage.dir, "ui_messages.json"), JSON.stringify(oldChat));
    await writeFile(path.join(storage.dir, "api_conversation_history.json"), JSON.stringify(oldApi));
    expect(await storage.loadChatMessages()).toEqual(oldChat);
    expect(await storage.loadApiHistory()).toEqual(oldApi);

    // Resumed as MessageState does: the loaded lists are recorded whole, then the task goes on.
    const chat = [...oldChat];
    const api = [...oldApi];
    const chatJournal = storage.chatJournal(() => chat, (e) => expect.fail(String(e)));
    const apiJournal = storage.apiJournal(() => api, (e) => expect.fail(String(e)));
    chatJournal.append({ reset: chat });
    apiJournal.append({ reset: api });
    chat.push(say(3, "resumed"));
    chatJournal.append({ push: say(3, "resumed") });
    api.push(user("go on"));
    apiJournal.append({ push: user("go on") });
    await Promise.all([chatJournal.flush(), apiJournal.flush()]);
    expect((await readdir(storage.dir)).sort()).toEqual(["api_conversation_history.jsonl", "ui_messages.jsonl"]);
    expect(await storage.loadChatMessages()).toEqual(chat);
    expect(await storage.loadApiHistory()).toEqual(api);
  });

  it("applies a journal that does not start whole on top of the older version's file", async () => {
    const storage = new TaskStorage(root, "mixed");
    await mkdir(storage.dir, { recursive: true });
    await writeFile(path.join(storage.dir, "ui_messages.json"), JSON.stringify([say(1, "old")]));
    await writeFile(path.join(storage.dir, "ui_messages.jsonl"), `${JSON.stringify({ push: say(2, "new") })}\n`);
    expect(await storage.loadChatMessages()).toEqual([say(1, "old"), say(2, "new")]);
  });

  it("says which file is unreadable when an older version's file is not JSON", async () => {
    const storage = new TaskStorage(root, "bad");
    await mkdir(storage.dir, { recursive: true });
    await writeFile(path.join(storage.dir, "api_conversation_history.json"), "[{oops");
    await expect(storage.loadApiHistory()).rejects.toThrow(/api_conversation_history\.json is not valid JSON/);
  });

  it("reports a change it cannot write instead of throwing, and writes the next one once it can", async () => {
    const { storage, chat, journal, errors } = chatOf();
    await writeFile(path.join(root, "tasks"), "a file where the folder should be");
    chat.push(say(1, "lost"));
    expect(() => journal.append({ push: say(1, "lost") })).not.toThrow();
    expect(errors).toHaveLength(1);
    await rm(path.join(root, "tasks"));
    chat.push(say(2, "saved"));
    journal.append({ push: say(2, "saved") });
    expect(await storage.loadChatMessages()).toEqual([say(2, "saved")]);
  });

  it("replaces one API message by its position in a line of its own, and old files without that op still load", async () => {
    const storage = new TaskStorage(root, "replace");
    const api = [user("task"), { role: "assistant", content: [{ type: "text", text: "reading" }] } as ApiMessage, user("x".repeat(5000))];
    const journal = storage.apiJournal(() => api, (e) => expect.fail(String(e)));
    for (const m of api) journal.append({ push: m });
    const before = statSync(path.join(storage.dir, "api_conversation_history.jsonl")).size;
    api[2] = user("[content replaced]");
    journal.append({ replace: { index: 2, item: api[2] } });
    await journal.flush();
    const file = path.join(storage.dir, "api_conversation_history.jsonl");
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    // One short line appended, nothing rewritten.
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[3] as string)).toEqual({ replace: { index: 2, item: user("[content replaced]") } });
    expect(statSync(file).size - before).toBeLessThan(120);
    expect(await storage.loadApiHistory()).toEqual(api);

    // A file an older Tandem wrote (pushes and resets only) reads back as it always did.
    const old = new TaskStorage(root, "old-format");
    await mkdir(old.dir, { recursive: true });
    await writeFile(path.join(old.dir, "api_conversation_history.jsonl"), `${JSON.stringify({ push: user("a") })}\n${JSON.stringify({ reset: [user("b")] })}\n${JSON.stringify({ push: user("c") })}\n`);
    expect(await old.loadApiHistory()).toEqual([user("b"), user("c")]);
  });

  it("refuses a replacement of a message the history does not have, naming the file", async () => {
    const storage = new TaskStorage(root, "bad-replace");
    await mkdir(storage.dir, { recursive: true });
    await writeFile(path.join(storage.dir, "api_conversation_history.jsonl"), `${JSON.stringify({ push: user("a") })}\n${JSON.stringify({ replace: { index: 3, item: user("b") } })}\n`);
    await expect(storage.loadApiHistory()).rejects.toThrow(/api_conversation_history\.jsonl is damaged: .*replaces item 3, but it holds only 1/);
    await writeFile(path.join(storage.dir, "api_conversation_history.jsonl"), `${JSON.stringify({ replace: { index: -1, item: user("b") } })}\n`);
    await expect(storage.loadApiHistory()).rejects.toThrow(/line 1 \(written by a newer version\?\)/);
  });

  it("counts a replaced message as superseded, so replacing old reads every round compacts in proportion", async () => {
    const stats: WriteStats = { bytes: 0, fsyncs: 0 };
    const storage = new TaskStorage(root, "replace-compact", { stats, slackBytes: 1024 });
    const api: ApiMessage[] = [];
    const journal = storage.apiJournal(() => api, (e) => expect.fail(String(e)));
    for (let i = 0; i < 200; i++) {
      api.push(user(`read ${i} `.padEnd(2000, "z")));
      journal.append({ push: api.at(-1) as ApiMessage });
      if (i > 0) {
        api[i - 1] = user(`[content replaced ${i - 1}]`);
        journal.append({ replace: { index: i - 1, item: api[i - 1] as ApiMessage } });
      }
      if (i % 10 === 9) await journal.flush();
    }
    await journal.flush();
    expect(await storage.loadApiHistory()).toEqual(api);
    const live = JSON.stringify({ reset: api }).length;
    const appended = 200 * 2000;
    // Without counting replacements nothing would ever compact, and the file would hold all 200 full reads.
    expect(live).toBeLessThan(appended / 20);
    expect(statSync(path.join(storage.dir, "api_conversation_history.jsonl")).size).toBeLessThan(appended / 5);
  });

  it("fsyncs on flush only what changed since the last flush", async () => {
    const stats: WriteStats = { bytes: 0, fsyncs: 0 };
    const { chat, journal } = chatOf({ stats });
    chat.push(say(1, "a"));
    journal.append({ push: say(1, "a") });
    await journal.flush();
    await journal.flush();
    expect(stats.fsyncs).toBe(1);
  });
});
