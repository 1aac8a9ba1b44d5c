/**
 * A saved task read back for its export: the entry the index lists and the chat its folder holds,
 * turned into Markdown (`task-markdown.ts`). What cannot be exported is an error that says why in
 * words (no such task, a chat that cannot be read), for the panel's notice and the CLI's stderr.
 */
import type { HistoryItem } from "../../shared/protocol";
import type { TaskHistory } from "../storage/task-history";
import { TaskStorage } from "../storage/task-storage";
import { exportFileName, taskMarkdown } from "./task-markdown";

export interface TaskExport {
  readonly item: HistoryItem;
  readonly markdown: string;
  /** A name to offer for the file. */
  readonly fileName: string;
}

/** Task `id` of `history` (kept under `root`) as Markdown. */
export async function exportTask(root: string, history: TaskHistory, id: string): Promise<TaskExport> {
  const item = await history.get(id);
  if (!item) throw new Error(`No saved task ${id} to export.`);
  const chat = await new TaskStorage(root, id).loadChatMessages();
  if (chat.length === 0) throw new Error(`Task ${id} has no saved conversation to export (its folder is empty or gone).`);
  return { item, markdown: taskMarkdown(item, chat), fileName: exportFileName(item) };
}
