/**
 * The History index made again from the task folders, for when it is missing or unreadable. Each
 * folder's entry file (`history_item.json`, kept by TaskHistory) gives the task's text, start,
 * status, workspace and star; its totals come from its chat (`sumUsage`, as the header sums
 * them), which owns them. A folder written before entry files existed is read from its chat
 * alone: its first message, the status its chat shows, no workspace.
 */
import { readdir, readFile } from "node:fs/promises";
import type { ChatMessage } from "../../shared/messages";
import { TASK_STATUSES, type HistoryItem, type TaskStatus } from "../../shared/protocol";
import { sumUsage, ZERO_USAGE } from "../../shared/usage";
import { taskHistoryEntryFile, tasksFolder } from "./paths";
import { TaskStorage } from "./task-storage";

/** What a task's folder keeps of its History entry: everything but the totals. */
export type HistoryEntryRecord = Omit<HistoryItem, "usage">;

export function entryOf(item: HistoryItem): HistoryEntryRecord {
  const { usage: _usage, ...entry } = item;
  return entry;
}

/** Folders read at once: enough to keep the disk busy, few enough not to run out of file handles. */
const PARALLEL_READS = 16;

/** Every task found under `<root>/tasks/`, newest first; what cannot be read is told to `onError` once. */
export async function rebuildHistoryIndex(root: string, onError: (error: unknown) => void): Promise<HistoryItem[]> {
  const ids = await taskIds(root);
  const items: HistoryItem[] = [];
  const problems: string[] = [];
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
      try {
        const item = await rebuildItem(root, id);
        if (item) items.push(item);
      } catch (error) {
        problems.push(`${id} (${(error as Error).message})`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, queue.length) }, worker));
  if (problems.length > 0) {
    const shown = problems.slice(0, 3).join("; ");
    onError(new Error(`History: ${problems.length} task folder${problems.length === 1 ? " was" : "s were"} left out of the rebuilt index: ${shown}${problems.length > 3 ? "; …" : ""}.`));
  }
  return items.sort((a, b) => b.startedAt - a.startedAt);
}

async function taskIds(root: string): Promise<string[]> {
  try {
    const entries = await readdir(tasksFolder(root), { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** One folder's task; undefined for a folder that holds no task (nothing was said in it). */
async function rebuildItem(root: string, id: string): Promise<HistoryItem | undefined> {
  const entry = await readEntry(root, id);
  let chat: ChatMessage[];
  try {
    chat = await new TaskStorage(root, id).loadChatMessages();
  } catch (error) {
    // The entry alone still lists the task; its chat's problem is told when it is opened.
    if (entry) return { ...entry, usage: ZERO_USAGE };
    throw error;
  }
  if (entry) return { ...entry, usage: sumUsage(chat) };
  const first = chat[0];
  if (!first) return undefined;
  return { id, text: first.text ?? "", startedAt: first.ts, usage: sumUsage(chat), status: statusShown(chat) };
}

async function readEntry(root: string, id: string): Promise<HistoryEntryRecord | undefined> {
  const file = taskHistoryEntryFile(root, id);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const entry = JSON.parse(text) as Partial<HistoryEntryRecord> | null;
  if (entry?.id !== id || typeof entry.text !== "string" || typeof entry.startedAt !== "number") throw new Error(`${file} is not a History entry of this task`);
  return {
    id,
    text: entry.text,
    startedAt: entry.startedAt,
    ...(isStatus(entry.status) ? { status: entry.status } : {}),
    ...(typeof entry.workspace === "string" ? { workspace: entry.workspace } : {}),
    ...(entry.favorite === true ? { favorite: true } : {}),
  };
}

function isStatus(value: unknown): value is TaskStatus {
  return (TASK_STATUSES as readonly unknown[]).includes(value);
}

/**
 * A task's status as far as its chat shows it: completed when it ends on its result; else running,
 * which the index says of a task no host runs any more (interrupted), and of one whose runner has
 * not written its entry yet.
 */
function statusShown(chat: readonly ChatMessage[]): TaskStatus {
  const last = chat.findLast((message) => message.type === "ask");
  return last?.type === "ask" && last.ask === "completion_result" ? "completed" : "running";
}
