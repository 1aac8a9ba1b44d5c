/**
 * attempt_completion: the model presents its final result; the person either accepts it (the
 * task ends) or replies, and the loop goes on with that feedback. A command that shows the result
 * is offered as Cline does ("Run"): it goes through execute_command itself, so the same command
 * policy, approval question, guard, terminal and output apply; only its chat rows say they belong
 * to the result (`tool: "attempt_completion"`). Declining it only skips it.
 */
import { param } from "./params";
import { defineTool, type Feedback, type ToolContext, type ToolResult } from "./types";

export const attemptCompletionTool = defineTool({
  name: "attempt_completion",
  description:
    "Present the final result of the task once it is done and you have checked the outcome of every tool you used. " +
    "State the result as final: do not end it with a question or an offer of more help. " +
    "The person may accept it or reply with feedback, which you then act on.",
  params: [
    param.text("result", "What you did and what came of it, briefly.", { required: true }),
    param.text(
      "command",
      "A shell command that shows the result (e.g. `open index.html`, `npm start`); the person is offered to run it, " +
        "under the same approval as execute_command. Not for checks you should have run yourself.",
    ),
  ],
  readOnly: true,
  approval: "none",
  // Plan mode ends its turns with plan_mode_respond: there is no result to present before acting.
  modes: ["act"],
  example:
    "<attempt_completion>\n<result>Added greet() in src/greet.ts and exported it from src/index.ts.</result>\n</attempt_completion>",
  async prepare(params, ctx) {
    return { run: () => complete(params.result, params.command?.trim(), ctx) };
  },
});

async function complete(result: string, command: string | undefined, ctx: ToolContext): Promise<ToolResult> {
  await ctx.say("completion_result", result);
  const offered = command ? await offerCommand(command, ctx) : undefined;
  if (offered?.kind === "feedback") return { kind: "completion_feedback", feedback: offered.feedback };
  const answer = await ctx.ask("completion_result", "");
  const hasFeedback = Boolean(answer.text?.trim() || answer.images?.length);
  // Accepting, or declining without saying why, ends the task; only feedback continues it.
  if (answer.type === "yes" || !hasFeedback) return { kind: "task_completed" };
  await ctx.say("user_feedback", answer.text, { images: answer.images });
  const ran = offered?.kind === "ran" ? `\n\n(The person ran the suggested command \`${command}\` first. ${offered.output})` : "";
  return { kind: "completion_feedback", feedback: { text: `${(await ctx.withMentions(answer.text)) ?? ""}${ran}`, images: answer.images } };
}

type Offer = { readonly kind: "ran"; output: string } | { readonly kind: "skipped" } | { readonly kind: "feedback"; feedback: Feedback };

/** Runs the suggested command through execute_command, its approval question marked as the result's. */
async function offerCommand(command: string, ctx: ToolContext): Promise<Offer> {
  const result = await ctx.callTool("execute_command", { command }, { shownAs: "attempt_completion" });
  if (result.kind === "ok") return { kind: "ran", output: typeof result.content === "string" ? result.content : result.content.map((b) => (b.type === "text" ? b.text : "")).join("\n") };
  const feedback = result.kind === "rejected" ? result.feedback : undefined;
  // A reply instead of running it is feedback on the result (the executor already showed it).
  if (feedback?.text?.trim() || feedback?.images?.length) return { kind: "feedback", feedback };
  return { kind: "skipped" };
}
