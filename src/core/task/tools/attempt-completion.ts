/**
 * attempt_completion: the model presents its final result; the person either accepts it (the
 * task ends) or replies, and the loop goes on with that feedback.
 */
import type { ToolDefinition } from "./types";

export const attemptCompletionTool: ToolDefinition = {
  name: "attempt_completion",
  description:
    "Present the final result of the task once it is done and you have checked the outcome of every tool you used. " +
    "State the result as final: do not end it with a question or an offer of more help. " +
    "The person may accept it or reply with feedback, which you then act on.",
  params: [
    { name: "result", required: true, description: "What you did and what came of it, briefly." },
    {
      name: "command",
      required: false,
      description: "A shell command that shows the result (e.g. `npm start`); shown to the person, not run for now.",
    },
  ],
  readOnly: true,
  approval: "none",
  example:
    "<attempt_completion>\n<result>Added greet() in src/greet.ts and exported it from src/index.ts.</result>\n</attempt_completion>",
  async execute(params, ctx) {
    await ctx.say("completion_result", params.result ?? "");
    const command = params.command?.trim();
    if (command) await ctx.say("info", `Suggested command to see the result (not run): ${command}`);
    const answer = await ctx.ask("completion_result", "");
    const hasFeedback = Boolean(answer.text?.trim() || answer.images?.length);
    // Accepting, or declining without saying why, ends the task; only feedback continues it.
    if (answer.type === "yes" || !hasFeedback) return { kind: "task_completed" };
    await ctx.say("user_feedback", answer.text, { images: answer.images });
    return { kind: "completion_feedback", feedback: { text: answer.text, images: answer.images } };
  },
};
