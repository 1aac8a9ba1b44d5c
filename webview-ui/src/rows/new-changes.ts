/** When a result row offers "See new changes", and what it compares. Pure, over the chat's rows. */
import type { ChatMessage } from "../../../src/shared/messages";

const isResult = (message: ChatMessage) => message.type === "say" && message.say === "completion_result";
const isRoundCheckpoint = (message: ChatMessage) => message.type === "say" && message.say === "checkpoint_created" && message.checkpoint !== undefined;

/**
 * The checkpoint "See new changes" on the result row `ts` compares with the workspace now: where
 * the previous result left the workspace (the newest checkpoint before it; for a first result, the
 * task's start). Undefined, so no button, when no round changed files since that previous result
 * (or since the task started): the task changed nothing new to see.
 */
export function newChangesBase(messages: readonly ChatMessage[], ts: number): number | undefined {
  let index = messages.findIndex((message) => message.ts === ts);
  if (index < 0) return undefined;
  let changed = false;
  while (--index >= 0) {
    const message = messages[index] as ChatMessage;
    if (isResult(message)) break;
    if (isRoundCheckpoint(message)) changed = true;
  }
  if (!changed) return undefined;
  // The workspace as the previous result (or the task's start) left it.
  for (; index >= 0; index--) {
    const message = messages[index] as ChatMessage;
    if (message.checkpoint) return message.ts;
  }
  const first = messages[0];
  return first?.checkpoint ? first.ts : undefined;
}
