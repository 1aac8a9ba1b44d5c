/**
 * ask_followup_question: the model asks the person something it cannot find out with its
 * tools, optionally offering answers to pick from.
 */
import { formatResponse } from "../../prompts/responses";
import { ToolError, type ToolDefinition } from "./types";

export const askFollowupQuestionTool: ToolDefinition = {
  name: "ask_followup_question",
  description:
    "Ask the person a question when you need information you cannot get with your tools (a choice, a preference, " +
    "a missing detail). Ask one clear, specific question. Don't ask what you can find out by reading files.",
  params: [
    { name: "question", required: true, description: "The question to ask." },
    {
      name: "options",
      required: false,
      description: 'A JSON array of 2-5 short answers the person can pick from, e.g. ["Yes","No"].',
    },
  ],
  readOnly: true,
  approval: "none",
  example:
    '<ask_followup_question>\n<question>Should the config live in JSON or YAML?</question>\n<options>["JSON","YAML"]</options>\n</ask_followup_question>',
  async execute(params, ctx) {
    const options = parseOptions(params.options);
    const answer = await ctx.ask("followup", params.question ?? "", options.length > 0 ? { options } : undefined);
    if (answer.text || answer.images?.length) await ctx.say("user_feedback", answer.text, { images: answer.images });
    return { kind: "ok", content: formatResponse.toolResult(`<answer>\n${answer.text ?? ""}\n</answer>`, answer.images) };
  },
};

/** Options arrive as JSON text; anything but an array of strings is the model's mistake. */
export function parseOptions(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === "") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new ToolError(
      "invalid_param",
      `options must be a JSON array of strings such as ["Yes","No"]; it is not valid JSON (${(error as Error).message}).`,
    );
  }
  if (!Array.isArray(parsed) || !parsed.every((option) => typeof option === "string")) {
    throw new ToolError("invalid_param", 'options must be a JSON array of strings such as ["Yes","No"].');
  }
  return parsed;
}
