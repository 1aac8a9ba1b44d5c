/** The CLI's exit codes: one table, printed by --help and documented in docs/architecture.md. */
import type { TaskOutcome } from "../core/task";

export const EXIT = {
  completed: 0,
  failed: 1,
  mistakeLimit: 2,
  /** Unattended, something needed approval that no switch gave: the task stopped there. */
  needsApproval: 3,
  /** The task reached its --max-cost or --max-requests cap, and nobody at a terminal raised it. */
  spendLimit: 4,
  /** Bad arguments, a missing --cwd folder, no such saved task (EX_USAGE). */
  usage: 64,
  /** Ctrl-C (128 + SIGINT). */
  cancelled: 130,
} as const;

export const EXIT_FOR_OUTCOME: Record<TaskOutcome, number> = {
  completed: EXIT.completed,
  failed: EXIT.failed,
  mistake_limit: EXIT.mistakeLimit,
  spend_limit: EXIT.spendLimit,
  aborted: EXIT.cancelled,
};

export const EXIT_CODE_HELP = [
  `  ${EXIT.completed}    the task completed`,
  `  ${EXIT.failed}    the task failed (e.g. the API refused the key, or a request failed for good)`,
  `  ${EXIT.mistakeLimit}    the model made too many mistakes in a row`,
  `  ${EXIT.needsApproval}    something needed approval that nobody could give (see --auto-approve)`,
  `  ${EXIT.spendLimit}    the task reached its --max-cost or --max-requests cap`,
  `  ${EXIT.usage}   bad arguments, a missing --cwd folder, or no such saved task`,
  `  ${EXIT.cancelled}  cancelled with Ctrl-C`,
].join("\n");
