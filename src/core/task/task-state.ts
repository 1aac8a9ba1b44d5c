import type { AssistantMessageContent } from "../assistant-message/types";
import type { ContentBlock } from "../../api/types";
import type { TaskEnd } from "./round-outcome";

/** Why the task was aborted: the person cancelled it, or the host is shutting down. */
export type AbortReason = "cancelled" | "shutdown";

/**
 * The Task's mutable state. Every change goes through the Task's state lock (withStateLock),
 * except `abortReason` (abortTask sets it at once) and presentAssistantMessage's re-entrancy pair
 * (checked and set with no await between, on every chunk). The per-round fields are the seed's: `resetRound()` resets them
 * together at the start of every request, so nothing of one round leaks into the next. How a
 * round ends is not kept here: each round returns it (round-outcome.ts).
 */
export class TaskState {
  // --- whole task
  /** Set once by abortTask; every stage checks `abort` first. */
  abortReason: AbortReason | undefined;
  consecutiveMistakeCount = 0;
  apiRequestCount = 0;
  /** Set by attempt_completion (accepted) or new_task: the task ends once this round's tools ran. */
  taskEnd: TaskEnd | undefined;

  // --- per round
  /** Blocks parsed so far from the streamed answer (XML blocks, then native tool calls). */
  assistantMessageContent: AssistantMessageContent[] = [];
  /** Index of the block presentAssistantMessage is working on. */
  currentStreamingContentIndex = 0;
  didCompleteReadingStream = false;
  /** Tool results and notes gathered this round: the next round's user content. */
  userMessageContent: ContentBlock[] = [];
  /** True once every block of this round has been presented (tools run). */
  userMessageContentReady = false;
  didRejectTool = false;
  didAlreadyUseTool = false;
  presentAssistantMessageLocked = false;
  presentAssistantMessageHasPendingUpdates = false;

  get abort(): boolean {
    return this.abortReason !== undefined;
  }

  resetRound(): void {
    this.assistantMessageContent = [];
    this.currentStreamingContentIndex = 0;
    this.didCompleteReadingStream = false;
    this.userMessageContent = [];
    this.userMessageContentReady = false;
    this.didRejectTool = false;
    this.didAlreadyUseTool = false;
    this.presentAssistantMessageLocked = false;
    this.presentAssistantMessageHasPendingUpdates = false;
  }
}
