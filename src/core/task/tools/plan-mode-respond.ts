/**
 * plan_mode_respond: in Plan mode, how the model talks to the person: its plan, or a question
 * about it, with answers to pick. The task waits for the reply, unless the model says it needs to
 * explore more first. Switching to Act mode while it waits ends the wait: the plan is carried on.
 */
import { formatResponse } from "../../prompts/responses";
import { param } from "./params";
import { defineTool, type ToolContext, type ToolResult } from "./types";

export const planModeRespondTool = defineTool({
  name: "plan_mode_respond",
  description:
    "Plan mode only: present your plan to the person, or discuss it with them (a question, a choice between approaches). " +
    "It waits for their reply; they switch to Act mode when they want the plan carried out. " +
    "Set needs_more_exploration to true when you want to look at more files before planning further: you go on at once, without waiting.",
  params: [
    param.text("response", "Your plan or your message to the person (markdown).", { required: true }),
    param.json("options", 'A JSON array of 2-5 short answers the person can pick from, e.g. ["Use a cache","Keep it simple"].', {
      shape: 'a JSON array of strings such as ["Yes","No"]',
      fits: (value): value is string[] => Array.isArray(value) && value.every((option) => typeof option === "string"),
    }),
    param.boolean("needs_more_exploration", "true: you are not done exploring; you go on with your tools instead of waiting. Default false."),
  ],
  readOnly: true,
  approval: "none",
  modes: ["plan"],
  example:
    "<plan_mode_respond>\n<response>1. Move the parsing into src/parse.ts.\n2. Add tests for the edge cases.</response>\n<options>[\"Go ahead\",\"Keep parsing where it is\"]</options>\n</plan_mode_respond>",
  async prepare({ response, options = [], needs_more_exploration: exploring = false }, ctx) {
    return { run: () => (exploring ? goOnExploring(response, ctx) : askAboutPlan(response, options, ctx)) };
  },
});

async function goOnExploring(response: string, ctx: ToolContext): Promise<ToolResult> {
  await ctx.say("text", response);
  return { kind: "ok", content: "The person has not been asked yet. Go on exploring with your tools, then respond with plan_mode_respond." };
}

async function askAboutPlan(response: string, options: readonly string[], ctx: ToolContext): Promise<ToolResult> {
  const answer = await ctx.ask("plan_mode_respond", response, options.length > 0 ? { options: [...options] } : undefined);
  // The person switched to Act mode instead of replying: the Task told us by closing the question.
  if (ctx.mode() === "act") return { kind: "ok", content: "The person did not reply: they switched to Act mode to have the plan carried out." };
  const replied = Boolean(answer.text?.trim() || answer.images?.length);
  if (answer.type === "yes" && !replied) return { kind: "task_completed", accepted: "plan" };
  if (replied) await ctx.say("user_feedback", answer.text, { images: answer.images });
  return { kind: "ok", content: formatResponse.toolResult(`<user_message>\n${(await ctx.withMentions(answer.text)) ?? ""}\n</user_message>`, answer.images) };
}
