/**
 * What `crash-child.ts` logs, and the checks `crash.test.ts` makes after each kill: the saved task
 * loads, holds every message the child saw complete (in that version or a newer one, never an
 * older one), lost nothing that an earlier kill had left, and its API history is whole.
 */
import type { ApiMessage } from "../../src/api/types";
import { TaskStorage } from "../../src/core/storage/task-storage";
import type { ChatMessage } from "../../src/shared/messages";

export const CRASH_TASK_ID = "crash-task";

/** One log line: a message seen complete, messages removed, or a saved chat loaded on resume. */
export type CrashLogEntry =
  | { run: number; message: ChatMessage; api: number }
  | { run: number; removed: readonly number[] }
  | { run: number; loaded: readonly ChatMessage[]; api: number };

export interface Saved {
  chat: ChatMessage[];
  api: ApiMessage[];
}

/** The log's entries; a last line the kill cut short is not one. */
export function parseCrashLog(text: string): CrashLogEntry[] {
  const end = text.lastIndexOf("\n");
  return end < 0 ? [] : text.slice(0, end).split("\n").map((line) => JSON.parse(line) as CrashLogEntry);
}

/** Loads the saved task and lists every way it breaks the promise (none: []). */
export async function checkSaved(root: string, log: readonly CrashLogEntry[], run: number, before: Saved | undefined): Promise<{ saved: Saved; problems: string[] }> {
  const storage = new TaskStorage(root, CRASH_TASK_ID);
  let saved: Saved;
  try {
    saved = { chat: await storage.loadChatMessages(), api: await storage.loadApiHistory() };
  } catch (error) {
    return { saved: { chat: [], api: [] }, problems: [`the saved task does not load: ${(error as Error).message}`] };
  }
  const problems = [...checkChat(saved.chat, log), ...checkApi(saved.api, log.filter((e) => e.run === run))];
  if (before) problems.push(...checkKept(before, saved, log.filter((e) => e.run === run)));
  return { saved, problems };
}

function checkChat(chat: readonly ChatMessage[], log: readonly CrashLogEntry[]): string[] {
  const problems: string[] = [];
  chat.forEach((m, i) => {
    if (typeof m.ts !== "number" || (m.type !== "say" && m.type !== "ask")) problems.push(`chat row ${i} is not a message: ${JSON.stringify(m)}`);
    if (i > 0 && m.ts <= (chat[i - 1] as ChatMessage).ts) problems.push(`chat row ${i} (ts ${m.ts}) is out of order`);
  });
  const onDisk = new Map(chat.map((m) => [m.ts, JSON.stringify(m)]));
  for (const [ts, versions] of versionsByTs(log)) {
    const disk = onDisk.get(ts);
    if (versions === "removed") {
      if (disk !== undefined) problems.push(`message ${ts} was removed but is still saved`);
    } else if (disk === undefined) {
      problems.push(`message ${ts} was complete (${versions.at(-1)}) but is not saved`);
    } else if (disk !== versions.at(-1) && versions.includes(disk)) {
      problems.push(`message ${ts} is saved in an older version: ${disk}, not ${versions.at(-1)}`);
    }
  }
  return problems;
}

/** Every version of each message the child saw complete, in order, or "removed" if that came last. */
function versionsByTs(log: readonly CrashLogEntry[]): Map<number, string[] | "removed"> {
  const versions = new Map<number, string[] | "removed">();
  const add = (m: ChatMessage) => {
    const known = versions.get(m.ts);
    versions.set(m.ts, [...(known === "removed" || !known ? [] : known), JSON.stringify(m)]);
  };
  for (const entry of log) {
    if ("message" in entry) add(entry.message);
    else if ("removed" in entry) for (const ts of entry.removed) versions.set(ts, "removed");
    else {
      // A resumed task replaces the chat with what it loaded (the question it asks again left out).
      const loaded = new Set(entry.loaded.map((m) => m.ts));
      for (const ts of versions.keys()) if (!loaded.has(ts)) versions.set(ts, "removed");
      entry.loaded.forEach(add);
    }
  }
  return versions;
}

/** `log`: the entries of the run that was just killed. */
function checkApi(api: readonly ApiMessage[], log: readonly CrashLogEntry[]): string[] {
  const problems: string[] = [];
  api.forEach((m, i) => {
    if (m.role !== (i % 2 === 0 ? "user" : "assistant")) problems.push(`API message ${i} is from the ${m.role}, out of turn`);
  });
  const seen = Math.max(0, ...log.map((e) => ("api" in e ? e.api : 0)));
  // A resumed task merges its next user turn into a trailing user message in one recorded change,
  // so the history never gets shorter than what was recorded.
  if (api.length < seen) problems.push(`the API history has ${api.length} messages; ${seen} were recorded`);
  return problems;
}

/** Nothing an earlier kill left on disk is lost, apart from what resuming replaces. `log`: the last run's entries. */
function checkKept(before: Saved, now: Saved, log: readonly CrashLogEntry[]): string[] {
  const problems: string[] = [];
  const nowTs = new Set(now.chat.map((m) => m.ts));
  const loaded = log.find((e) => "loaded" in e);
  const reloaded = loaded && "loaded" in loaded ? new Set(loaded.loaded.map((m) => m.ts)) : undefined;
  const removed = new Set(log.flatMap((e) => ("removed" in e ? e.removed : [])));
  for (const m of before.chat) {
    const leftOut = reloaded !== undefined && !reloaded.has(m.ts);
    if (!nowTs.has(m.ts) && !leftOut && !removed.has(m.ts)) problems.push(`message ${m.ts} was saved before the last run and is gone`);
  }
  // A resume merges a trailing user message into the next one; everything before it stays as it was.
  const kept = before.api.at(-1)?.role === "user" ? before.api.slice(0, -1) : before.api;
  kept.forEach((m, i) => {
    if (JSON.stringify(now.api[i]) !== JSON.stringify(m)) problems.push(`API message ${i} changed or vanished since the last run`);
  });
  return problems;
}
