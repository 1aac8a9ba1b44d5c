/**
 * Saved tasks made up for the History bench: each a folder as a run leaves it (its chat journal,
 * its History entry, its digest) and one index listing them all. Written without fsync: only the
 * reading is measured. Words come from a small vocabulary, so a query matches some tasks, not all.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { taskDigest } from "../src/core/history/task-digest";
import { encodeOp } from "../src/core/storage/journal-format";
import { taskDigestFile, taskFolder, taskHistoryEntryFile, taskHistoryFile } from "../src/core/storage/paths";
import type { ChatMessage } from "../src/shared/messages";
import type { HistoryItem } from "../src/shared/protocol";
import { sumUsage } from "../src/shared/usage";

const COMMON = "the a to of and in it is for with on that this".split(" ");
const TERMS = ("parser loader config fetcher retry build bundler test docs cache index search token stream file folder " +
  "rename refactor fix add remove update speed memory error warning request response server client panel history export").split(" ");
const SYLLABLES = "ka lo mi ne ru sa te vo zi pa de go hu ji be".split(" ");
/** A vocabulary of about 3,000 words, so a rare word is in few tasks and a common one in many, as in real text. */
const WORDS = [...COMMON, ...TERMS, ...SYLLABLES.flatMap((a) => SYLLABLES.flatMap((b) => SYLLABLES.map((c) => a + b + c)))];

/** Zipf-like: the common words often, the terms now and then, the rest rarely. */
function pick(x: number): string {
  const roll = x % 100;
  if (roll < 45) return COMMON[x % COMMON.length]!;
  if (roll < 55) return TERMS[(x >>> 8) % TERMS.length]!;
  return WORDS[(x >>> 4) % WORDS.length]!;
}

/** A deterministic generator, so every run makes the same tasks. */
function words(seed: number, count: number): string {
  let x = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(pick(x));
  }
  return out.join(" ");
}

export function chatOf(i: number, startedAt: number): ChatMessage[] {
  const request = (ts: number, tokensIn: number): ChatMessage => ({
    ts,
    type: "say",
    say: "api_req_started",
    apiRequest: { tokensIn, tokensOut: 200 + (i % 50), cacheWrites: 1_000, cacheReads: (i % 7) * 10_000, cost: tokensIn / 1e6 * 3 + 0.001 * (i % 13), outcome: "completed" },
  });
  return [
    { ts: startedAt, type: "say", say: "task", text: `Task ${i}: ${words(i, 12)}` },
    request(startedAt + 1, 2_000 + (i % 97) * 100),
    { ts: startedAt + 2, type: "say", say: "text", text: words(i + 1, 40) },
    { ts: startedAt + 3, type: "say", say: "tool", tool: { tool: "read_file", path: `src/file-${i}.ts`, content: `/w/src/file-${i}.ts` } },
    { ts: startedAt + 4, type: "say", say: "user_feedback", text: words(i + 2, 15) },
    request(startedAt + 5, 3_000 + (i % 89) * 100),
    { ts: startedAt + 6, type: "say", say: "completion_result", text: `${words(i + 3, 25)} (task ${i} done)` },
    { ts: startedAt + 7, type: "ask", ask: "completion_result", text: "", outcome: "yes" },
  ];
}

/** `count` tasks under `root`, every third in another workspace; the index too. Gives the items. */
export async function generateTasks(root: string, count: number, workspace: string): Promise<HistoryItem[]> {
  const items: HistoryItem[] = [];
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count; i++) {
    const id = `bench-task-${String(i).padStart(5, "0")}`;
    const startedAt = start + i * 60_000;
    const chat = chatOf(i, startedAt);
    const item: HistoryItem = { id, text: chat[0]!.text!, startedAt, usage: sumUsage(chat), status: "completed", workspace: i % 3 === 2 ? `${workspace}-other` : workspace };
    items.push(item);
    await mkdir(taskFolder(root, id), { recursive: true });
    const { usage: _usage, ...entry } = item;
    await Promise.all([
      writeFile(`${taskFolder(root, id)}/ui_messages.jsonl`, encodeOp<ChatMessage>({ reset: chat })),
      writeFile(taskHistoryEntryFile(root, id), JSON.stringify(entry)),
      writeFile(taskDigestFile(root, id), taskDigest(chat)),
    ]);
  }
  items.reverse();
  await writeFile(taskHistoryFile(root), JSON.stringify(items));
  return items;
}
