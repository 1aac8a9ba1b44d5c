import { memo, type ReactElement } from "react";
import type { AskMessage, ChatMessage, SayMessage } from "../../../src/shared/messages";
import { useChatMessage } from "../use-extension-state";
import { ApiRequestRow } from "./ApiRequestRow";
import { CheckpointRestoredRow } from "./CheckpointRestoredRow";
import { CheckpointRow } from "./CheckpointRow";
import { CommandOutputRow } from "./CommandOutputRow";
import { CommandRow } from "./CommandRow";
import { CompletionCommandRow, CompletionRow } from "./CompletionRow";
import { CondensedRow } from "./CondensedRow";
import { ErrorRow } from "./ErrorRow";
import { FocusChainRow } from "./FocusChainRow";
import { FollowupRow } from "./FollowupRow";
import { HookRow } from "./HookRow";
import { InfoRow } from "./InfoRow";
import { McpRow } from "./McpRow";
import { MistakeLimitRow } from "./MistakeLimitRow";
import { SpendLimitRow } from "./SpendLimitRow";
import { NewTaskRow } from "./NewTaskRow";
import { PlanRow } from "./PlanRow";
import { ReasoningRow } from "./ReasoningRow";
import { ResumeTaskRow } from "./ResumeTaskRow";
import { RetryRow } from "./RetryRow";
import { Row } from "./Row";
import { TaskLedgerRow } from "./TaskLedgerRow";
import { TaskRow } from "./TaskRow";
import { TextRow } from "./TextRow";
import { ToolRow } from "./ToolRow";
import { UserFeedbackRow } from "./UserFeedbackRow";

function askRow(message: AskMessage): ReactElement {
  switch (message.ask) {
    case "followup":
      return <FollowupRow message={message} />;
    case "tool":
      return message.tool?.mcp ? <McpRow message={message} /> : <ToolRow message={message} />;
    case "command":
      return message.tool?.tool === "attempt_completion" ? <CompletionCommandRow message={message} /> : <CommandRow message={message} />;
    case "command_output":
      return <CommandOutputRow message={message} />;
    case "completion_result":
      return <CompletionRow message={message} />;
    case "api_req_failed":
      return <ErrorRow message={message} />;
    case "mistake_limit_reached":
      return <MistakeLimitRow message={message} />;
    case "spend_limit_reached":
      return <SpendLimitRow message={message} />;
    case "new_task":
      return <NewTaskRow message={message} />;
    case "resume_task":
      return <ResumeTaskRow message={message} />;
    case "plan_mode_respond":
      return <PlanRow message={message} />;
  }
}

function sayRow(message: SayMessage): ReactElement {
  switch (message.say) {
    case "task":
      return <TaskRow message={message} />;
    case "text":
      return <TextRow message={message} />;
    case "reasoning":
      return <ReasoningRow message={message} />;
    case "api_req_started":
      return <ApiRequestRow message={message} />;
    case "error":
      return <ErrorRow message={message} />;
    case "error_retry":
      return <RetryRow message={message} />;
    case "context_truncated":
    case "info":
      return <InfoRow message={message} />;
    case "context_condensed":
      return <CondensedRow message={message} />;
    case "tool":
      return message.tool?.mcp ? <McpRow message={message} /> : <ToolRow message={message} />;
    case "user_feedback":
      return <UserFeedbackRow message={message} />;
    case "completion_result":
      return <CompletionRow message={message} />;
    case "command":
      return message.tool?.tool === "attempt_completion" ? <CompletionCommandRow message={message} /> : <CommandRow message={message} />;
    case "command_output":
      return <CommandOutputRow message={message} />;
    case "checkpoint_created":
      return <CheckpointRow message={message} />;
    case "checkpoint_restored":
      return <CheckpointRestoredRow message={message} />;
    case "hook":
      return <HookRow message={message} />;
    case "task_progress":
      return <FocusChainRow message={message} />;
    case "task_ledger":
      return <TaskLedgerRow message={message} />;
  }
}

/** The row for any message; a kind this build does not know (a newer host) still shows its text. */
export function RowForMessage({ message }: { message: ChatMessage }): ReactElement {
  const row = message.type === "ask" ? askRow(message) : sayRow(message);
  return row ?? <Row message={message} icon="question" title="Unrecognised message" tone="muted">{message.text}</Row>;
}

/** A list row bound to one message by timestamp: re-renders only when that message changes. */
export const MessageRow = memo(function MessageRow({ ts }: { ts: number }) {
  const message = useChatMessage(ts);
  return message ? <RowForMessage message={message} /> : null;
});
