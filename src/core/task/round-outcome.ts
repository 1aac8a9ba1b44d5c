import type { ContentBlock } from "../../api/types";

export type TaskOutcome = "completed" | "failed" | "aborted" | "mistake_limit" | "spend_limit";

/**
 * How one round (a request, its answer presented, its tools run) ended: the one value the loop
 * acts on. `tools_ran` goes round again with the tools' results; `no_tool` ends
 * recursivelyMakeClineRequests, and initiateTaskLoop reminds the model to use a tool; `ended`
 * ends the task.
 */
export type RoundOutcome = { readonly kind: "tools_ran"; readonly results: ContentBlock[] } | { readonly kind: "no_tool" } | TaskEnded;

/** What recursivelyMakeClineRequests returns: the round used no tool (initiateTaskLoop reminds the model), or the task ended. */
export type RoundsOutcome = Exclude<RoundOutcome, { readonly kind: "tools_ran" }>;

export interface TaskEnded {
  readonly kind: "ended";
  readonly outcome: TaskOutcome;
}

/** One attempt at the round's request: to be sent again, presented (its tools ran), or the task's end. */
export type AttemptOutcome = { readonly kind: "retry" } | { readonly kind: "presented" } | TaskEnded;

export const ended = (outcome: TaskOutcome): TaskEnded => ({ kind: "ended", outcome });

/** What ends the task once this round's tools ran: the person accepted the result, or new_task handed it on. */
export type TaskEnd = { readonly kind: "completed" } | { readonly kind: "handed_off"; readonly context: string };
