/**
 * What each question takes, and what each answer means to the task. The panel names answers by
 * their meaning (approve, kill, …); the code that asked reads yes, no or a message, as Cline's does.
 */
import type { AskKind, AskResponse, ToolMessageInfo } from "../../shared/messages";
import type { AnswerChoice, OpenQuestion, QuestionAnswer, QuestionAnswers } from "../../shared/protocol";

const ANSWERS: { readonly [K in AskKind]: readonly QuestionAnswers[K][] } = {
  followup: ["reply"],
  tool: ["approve", "reject", "reply"],
  command: ["run", "reject", "reply"],
  command_output: ["proceed", "kill", "reply"],
  completion_result: ["accept", "reply"],
  api_req_failed: ["retry", "stop"],
  mistake_limit_reached: ["proceed", "stop", "reply"],
  spend_limit_reached: ["proceed", "raise", "stop"],
  new_task: ["accept", "decline", "reply"],
  resume_task: ["resume", "reply"],
  plan_mode_respond: ["reply", "accept"],
};

/** Not running the command a result suggests leaves the result as it is: the person skips it. */
const RESULT_COMMAND: readonly QuestionAnswers["command"][] = ["run", "skip", "reply"];

/** The question asked in row `id`. `tool` is the row's: it tells a result's suggested command from others. */
export function questionFor(id: number, kind: AskKind, tool: ToolMessageInfo | undefined): OpenQuestion {
  if (kind === "command" && tool?.tool === "attempt_completion") return { id, kind, answers: RESULT_COMMAND };
  return { id, kind, answers: ANSWERS[kind] } as OpenQuestion;
}

const YES: ReadonlySet<AnswerChoice> = new Set(["approve", "run", "proceed", "accept", "retry", "resume", "raise"]);

/** What the task reads for `answer`, or why it cannot be an answer to `question`. */
export function responseTo(question: OpenQuestion, answer: QuestionAnswer): AskResponse | { refused: string } {
  const { choice } = answer;
  if (!(question.answers as readonly AnswerChoice[]).includes(choice)) return { refused: `"${choice}" is not an answer to this question.` };
  const text = answer.text?.trim() || undefined;
  const images = answer.images?.length ? [...answer.images] : undefined;
  if (choice === "reply") {
    if (!text && !images) return { refused: "The reply was empty." };
    return { type: "message", text: text ?? "", ...(images ? { images } : {}) };
  }
  if (YES.has(choice)) return { type: "yes", ...(choice === "raise" ? { choice } : {}), ...(text ? { text } : {}), ...(images ? { images } : {}) };
  return { type: "no", ...(text ? { text } : {}), ...(images ? { images } : {}) };
}
