import type { FromWebviewMessage, OpenQuestion } from "../../src/shared/protocol";

/**
 * The answer of a person clicking through: a question's first answer is the one that goes on
 * (Approve, Run, Proceed, Accept, Retry, Resume); a followup, which takes only a reply, gets one.
 */
export function goOn(question: OpenQuestion): FromWebviewMessage {
  const choice = question.answers[0] ?? "reply";
  return { type: "answer", answer: { questionId: question.id, choice, ...(choice === "reply" ? { text: "Go on." } : {}) } };
}
