import type { AskMessage, ChatMessage } from "../../../src/shared/messages";

/**
 * The ask waiting for the person: the last message, when it is an ask, the task runs, and the
 * panel has not already answered it (the host's reply may still be on its way).
 */
export function openAsk(last: ChatMessage | undefined, running: boolean, answeredTs: number | undefined): AskMessage | undefined {
  if (last?.type !== "ask" || !running || last.ts === answeredTs) return undefined;
  return last;
}

/** An open ask that has finished streaming, so it can take an answer. */
export function answerableAsk(ask: AskMessage | undefined): AskMessage | undefined {
  return ask && !ask.partial ? ask : undefined;
}
