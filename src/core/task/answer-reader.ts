/**
 * Reads one streamed answer: the StreamChunkCoordinator splits the provider's stream into
 * reasoning, text, native tool calls and usage; text feeds the parser, whose blocks the Task
 * presents as they arrive (presentAssistantMessage).
 */
import type { ApiStreamChunk } from "../../api/types";
import type { AgentSettings } from "../../shared/settings";
import type { IncrementalAssistantMessageParser } from "../assistant-message/incremental-parser";
import { formatResponse } from "../prompts/responses";
import type { AnswerAssembler } from "./answer-assembler";
import type { AnswerPresenter } from "./answer-presenter";
import type { RequestRow } from "./request-row";
import { StreamChunkCoordinator } from "./stream-chunk-coordinator";
import type { TaskState } from "./task-state";

export interface AnswerReaderDeps {
  readonly state: TaskState;
  readonly presenter: AnswerPresenter;
  readonly parser: IncrementalAssistantMessageParser;
  settings(): AgentSettings;
  abortRequest(): void;
  presentAssistantMessage(): Promise<void>;
  withStateLock<T>(fn: () => T): Promise<T>;
}

/** How reading an answer ended: the stream ended (or was left after a tool), the person stopped the request before it began, or the stream failed. */
export type AnswerEnd = { readonly kind: "read" } | { readonly kind: "stopped" } | { readonly kind: "failed"; readonly error: unknown };

/** What attemptApiRequest returns when the person chose to stop after a failure: nothing was streamed. */
export const REQUEST_STOPPED = "stopped";

/**
 * Reads the stream into `answer`, presenting its blocks as they are parsed (after an XML tool
 * call or a rejection, the rest is not read).
 */
export async function readAnswer(stream: AsyncGenerator<ApiStreamChunk, unknown, undefined>, answer: AnswerAssembler, row: RequestRow, deps: AnswerReaderDeps): Promise<AnswerEnd> {
  const { state, presenter } = deps;
  const coordinator = new StreamChunkCoordinator(stream, { onUsage: (usage) => void row.addUsage(usage), abortRequest: deps.abortRequest });
  const xmlMode = deps.settings().toolCallMode === "xml";
  try {
    for (let chunk = await coordinator.next(); chunk && !state.abort; chunk = await coordinator.next()) {
      if (chunk.type === "reasoning") {
        answer.addReasoning(chunk);
        presenter.showReasoning(answer);
      } else if (chunk.type === "tool_calls") {
        answer.nativeCalls.add(chunk);
      } else if (chunk.type === "stop") {
        answer.stopReason = chunk.reason;
      } else {
        // Cline's rule: one XML tool per answer. Text after it is cut (and saves tokens),
        // but the stream is read to its end otherwise, so the usage that closes it is counted.
        if (state.didAlreadyUseTool && xmlMode && chunk.text.trim()) {
          answer.note = formatResponse.onlyOneToolPerMessage();
          break;
        }
        await presenter.closeReasoning(answer);
        answer.text += chunk.text;
        const blocks = deps.parser.append(chunk.text);
        await deps.withStateLock(() => (state.assistantMessageContent = [...blocks]));
        void deps.presentAssistantMessage();
      }
      if (state.didRejectTool) {
        answer.note = formatResponse.interruptedByToolRejection();
        break;
      }
    }
    return coordinator.returnValue === REQUEST_STOPPED ? { kind: "stopped" } : { kind: "read" };
  } catch (error) {
    return { kind: "failed", error };
  } finally {
    await coordinator.stop();
  }
}
