/**
 * ask_followup_question: the model asks the person something it cannot find out with its
 * tools, optionally offering answers to pick from.
 */
import { formatResponse } from "../../prompts/responses";
import { param } from "./params";
import { defineTool } from "./types";

export const askFollowupQuestionTool = defineTool({
  name: "ask_followup_question",
  description:
    "Ask the person a question when you need information you cannot get with your tools (a choice, a preference, " +
    "a missing detail). Ask one clear, specific question. Don't ask what you can find out by reading files.",
  params: [
    param.text("question", "The question to ask.", { required: true }),
    param.json("options", 'A JSON array of 2-5 short answers the person can pick from, e.g. ["Yes","No"].', {
      shape: 'a JSON array of strings such as ["Yes","No"]',
      fits: isStringArray,
    }),
  ],
  readOnly: true,
  approval: "none",
  example:
    '<ask_followup_question>\n<question>Should the config live in JSON or YAML?</question>\n<options>["JSON","YAML"]</options>\n</ask_followup_question>',
  async prepare({ question, options = [] }, ctx) {
    return {
      run: async () => {
        const answer = await ctx.ask("followup", question, options.length > 0 ? { options } : undefined);
        if (answer.text || answer.images?.length) await ctx.say("user_feedback", answer.text, { images: answer.images });
        return { kind: "ok", content: formatResponse.toolResult(`<answer>\n${(await ctx.withMentions(answer.text)) ?? ""}\n</answer>`, answer.images) };
      },
    };
  },
});

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((option) => typeof option === "string");
}
