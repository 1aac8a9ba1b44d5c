/**
 * What the Controller does with a task's checkpoints (the store is core/checkpoints, its API types.ts): compare one with the workspace, and restore the files, the task, or both.
 */
import type { ApiMessage } from "../../api/types";
import type { ChatMessage, CheckpointInfo, RemovedRequests } from "../../shared/messages";
import { removedRequests } from "../../shared/usage";
import { conversationUpTo } from "./message-edit";
import type { RestoredFiles } from "../../shared/checkpoints";

export { RESTORE_SCOPES, type CheckpointChange, type RestoreScope } from "../../shared/checkpoints";
export type { CheckpointService, TaskCheckpointStore } from "../checkpoints/types";

/** The checkpoint a row carries; a clear error when it carries none. */
export function checkpointOf(chat: readonly ChatMessage[], ts: number): CheckpointInfo {
  const checkpoint = chat.find((message) => message.ts === ts)?.checkpoint;
  if (!checkpoint) throw new Error("That step has no checkpoint to compare or restore.");
  return checkpoint;
}

/**
 * What "restore task" keeps: the chat up to the checkpoint's row, the conversation up to its
 * round's tool results. The requests it removes were billed all the same: a `checkpoint_restored`
 * row (with the first removed row's timestamp, so it sorts there) carries their sum, which the
 * totals count (shared/usage.ts), so a restore never takes money spent off the task.
 */
export function rewound(saved: { chat: readonly ChatMessage[]; api: readonly ApiMessage[] }, ts: number): { chat: ChatMessage[]; api: ApiMessage[] } {
  const checkpoint = checkpointOf(saved.chat, ts);
  const index = saved.chat.findIndex((message) => message.ts === ts);
  const chat = saved.chat.slice(0, index + 1);
  const removed = saved.chat.slice(index + 1);
  const spent = removedRequests(removed);
  const first = removed[0];
  if (spent && first) chat.push({ type: "say", say: "checkpoint_restored", ts: first.ts, text: describeRemoved(spent), removedRequests: spent });
  // The round's results as the next request sent them: words merged into them later (a reply to a resumed task) are not kept.
  const sent = removed.find((row) => row.type === "say" && row.say === "api_req_started" && row.apiRequest?.sent?.messages === checkpoint.apiMessages)?.apiRequest?.sent;
  return { chat, api: sent ? conversationUpTo(saved.api, sent) : saved.api.slice(0, checkpoint.apiMessages) };
}

/** The restore row's sentence (the CLI prints it; the panel words its own). */
function describeRemoved(spent: RemovedRequests): string {
  const requests = spent.requests === 1 ? "the request" : `the ${spent.requests} requests`;
  return `The task was taken back to this checkpoint; ${requests} after it ($${spent.cost.toFixed(4)}) stay in its totals.`;
}

/** One sentence on what a restore of files did. */
export function describeRestore(files: RestoredFiles): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const done = files.written.length + files.deleted.length === 0 ? "The files were already as they were at that checkpoint" : `Restored ${count(files.written.length, "file")} and deleted ${count(files.deleted.length, "file")} added since`;
  const skipped = files.skipped.map((s) => `${s.path} (${s.reason})`).join(", ");
  return skipped ? `${done}; left alone: ${skipped}.` : `${done}.`;
}
