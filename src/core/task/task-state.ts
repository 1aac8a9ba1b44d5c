import type { AssistantMessageContent } from "../assistant-message/types";
import type { ContentBlock } from "../../api/types";

/**
 * The Task's mutable state. Per-round fields are reset together by `resetRound()` at the start of
 * every request, so nothing from one round leaks into the next. Every write happens under the
 * Task's state lock.
 */
export type AbortReason = "cancelled" | "shutdown";

export class TaskState {
  // --- whole task
  /** Set once by abortTask; every stage checks it first. */
  abort = false;
  /** Why the task was aborted: the person cancelled it, or the host is shutting down. */
  abortReason: AbortReason = "cancelled";
  /** True once the loop has ended for good (completed, failed or aborted). */
  didFinish = false;
  consecutiveMistakeCount = 0;
  /** Set by new_task: the context the next task starts with. */
  handoffContext: string | undefined;
  apiRequestCount = 0;

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
  /** Set by attempt_completion when the person accepts the result. */
  didCompleteTask = false;
  presentAssistantMessageLocked = false;
  presentAssistantMessageHasPendingUpdates = false;
  /** Whether any tool actually ran this round (a mid-stream failure then cannot be retried blindly). */
  didRunToolThisRound = false;

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
    this.didRunToolThisRound = false;
  }
}
