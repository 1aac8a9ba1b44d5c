/**
 * Where an edit of one of the person's messages takes the task back to: the chat and the
 * conversation as they stood when the message was said, and the checkpoint whose files match
 * that moment. The edited message then goes on from there (Task.resumeTask's `edited`).
 *
 * The conversation is what it was at the point the row recorded (`conversationAt`), less an answer whose
 * tool calls would be left without results; the chat keeps the rows that conversation covers: it
 * is cut at the message, or earlier at the request whose answer is no longer in it (a message said
 * while a round's tools ran: that round is asked again). The requests the cut removes were billed,
 * so a `checkpoint_restored` row keeps their sum in the task's totals.
 */
import type { ApiMessage } from "../../api/types";
import type { ChatMessage, ConversationPoint } from "../../shared/messages";
import { removedRequests } from "../../shared/usage";

export interface EditPoint {
  /** The rows before the cut (none for the first message, which is itself the cut). */
  readonly chat: ChatMessage[];
  /** The row that keeps what the removed requests cost, to follow the kept rows (or the edited first message). */
  readonly spent: ChatMessage | undefined;
  readonly api: ApiMessage[];
  /** The task's first message: it is asked again as the task itself. */
  readonly first: boolean;
  /** The checkpoint whose files are the workspace as it was at the cut; undefined without checkpoints. */
  readonly filesAt: string | undefined;
  /** Whether any step after the cut changed files (a checkpoint was made after it). */
  readonly laterChanges: boolean;
}

/** The point an edit of row `ts` goes back to. Throws, in words for the person, when it cannot. */
export function editPoint(saved: { chat: readonly ChatMessage[]; api: readonly ApiMessage[] }, ts: number): EditPoint {
  const index = saved.chat.findIndex((row) => row.ts === ts);
  const message = saved.chat[index];
  if (!message || message.type !== "say" || (message.say !== "task" && message.say !== "user_feedback")) throw new Error("Only your own messages can be edited.");
  const first = index === 0 && message.say === "task";
  const point = first ? { messages: 0, lastBlocks: 0 } : message.conversationAt;
  if (point === undefined || point.messages > saved.api.length) throw new Error("This message was saved by an earlier version of Tandem, which did not record where the conversation stood: it cannot be edited.");
  // The counts recorded before a shortening no longer match the conversation (the first message keeps nothing of it).
  const shortened = !first && saved.chat.slice(index + 1).some((row) => row.type === "say" && (row.say === "context_condensed" || row.say === "context_truncated"));
  if (shortened) throw new Error("The conversation was shortened to fit the context window after this message, so Tandem can no longer take it back there: edit a later message, or start a new task.");

  const api = conversationUpTo(saved.api, point);
  // An answer whose tool calls have no results yet (the round was still running) goes too.
  while (api.length > 0 && endsWithOpenCalls(api.at(-1))) api.pop();
  const apiLength = api.length;
  const request = saved.chat.findIndex((row, i) => i < index && row.type === "say" && row.say === "api_req_started" && (row.apiRequest?.sent?.messages ?? -1) >= apiLength);
  const cut = request === -1 ? index : request;
  const removed = saved.chat.slice(cut);
  return {
    chat: saved.chat.slice(0, cut),
    // The first message keeps its place: the row goes after it, at the next removed row's time.
    spent: spentRow(removed, first ? removed[1]?.ts : removed[0]?.ts),
    api,
    first,
    filesAt: saved.chat.slice(0, first ? 1 : cut).findLast((row) => row.checkpoint)?.checkpoint?.hash,
    laterChanges: removed.some((row) => row.type === "say" && row.say === "checkpoint_created"),
  };
}

/** The `checkpoint_restored` row of what the removed rows' requests cost, or none when they made none. */
function spentRow(removed: readonly ChatMessage[], ts: number | undefined): ChatMessage | undefined {
  const spent = removedRequests(removed);
  if (!spent || ts === undefined) return undefined;
  const requests = spent.requests === 1 ? "the request" : `the ${spent.requests} requests`;
  const text = `The task was taken back to before an edited message; ${requests} after that point ($${spent.cost.toFixed(4)}) stay in its totals.`;
  return { type: "say", say: "checkpoint_restored", ts, text, removedRequests: spent, editedMessage: true };
}

function endsWithOpenCalls(message: ApiMessage | undefined): boolean {
  return message?.role === "assistant" && Array.isArray(message.content) && message.content.some((block) => block.type === "tool_use");
}

/** The conversation at `point`: words merged later into its last message are left out of it. */
export function conversationUpTo(history: readonly ApiMessage[], point: ConversationPoint): ApiMessage[] {
  const kept = history.slice(0, point.messages);
  const last = kept.at(-1);
  if (last && Array.isArray(last.content) && last.content.length > point.lastBlocks) kept[kept.length - 1] = { ...last, content: last.content.slice(0, point.lastBlocks) } as ApiMessage;
  return kept;
}
