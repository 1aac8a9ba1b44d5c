/**
 * new_task: when the conversation has grown long, the model writes a summary and proposes to go
 * on in a fresh task that starts from it. The person decides; if they agree, this task ends and
 * the Controller starts the next one with the context as its prompt.
 */
import { param } from "./params";
import { defineTool, type ToolContext, type ToolResult } from "./types";

export const newTaskTool = defineTool({
  name: "new_task",
  description:
    "Propose to continue the work in a fresh task with a clean context, carrying over what matters. " +
    "Use it when the conversation has become long. The context must stand on its own: the task's goal, " +
    "what is done, what is left, the files involved and any decisions or constraints.",
  params: [param.text("context", "Everything the next task needs to carry on, self-contained.", { required: true })],
  readOnly: true,
  approval: "none",
  example:
    "<new_task>\n<context>Goal: migrate the API client to fetch.\nDone: src/http.ts rewritten.\nLeft: update src/users.ts and its tests.</context>\n</new_task>",
  async prepare(params, ctx) {
    // The person's answer to the proposal is the whole tool: no approval besides it.
    return { run: () => propose(params.context.trim(), ctx) };
  },
});

async function propose(context: string, ctx: ToolContext): Promise<ToolResult> {
  const answer = await ctx.ask("new_task", context);
  if (answer.type === "yes") return { kind: "new_task", context };
  if (answer.text || answer.images?.length) await ctx.say("user_feedback", answer.text, { images: answer.images });
  return { kind: "rejected", feedback: { text: await ctx.withMentions(answer.text), images: answer.images } };
}
