/**
 * Every ask and say kind as runtime lists. The type checks below fail to compile when messages.ts
 * gains a kind that is missing here, and the row test walks these lists, so a new kind cannot ship
 * without a row.
 */
import type { AskKind, SayKind } from "../../../src/shared/messages";

export const ASK_KINDS = [
  "followup",
  "tool",
  "command",
  "command_output",
  "completion_result",
  "api_req_failed",
  "mistake_limit_reached",
  "spend_limit_reached",
  "new_task",
  "resume_task",
  "plan_mode_respond",
] as const satisfies readonly AskKind[];

export const SAY_KINDS = [
  "task",
  "text",
  "reasoning",
  "api_req_started",
  "error",
  "error_retry",
  "context_truncated",
  "context_condensed",
  "tool",
  "user_feedback",
  "completion_result",
  "command",
  "command_output",
  "info",
  "checkpoint_created",
  "checkpoint_restored",
  "hook",
  "task_progress",
  "task_ledger",
] as const satisfies readonly SayKind[];

type Exhaustive<Missing> = [Missing] extends [never] ? true : { missing: Missing };
const asksComplete: Exhaustive<Exclude<AskKind, (typeof ASK_KINDS)[number]>> = true;
const saysComplete: Exhaustive<Exclude<SayKind, (typeof SAY_KINDS)[number]>> = true;
void asksComplete;
void saysComplete;
