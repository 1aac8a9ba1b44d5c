/**
 * What the person typed, as the model gets it — the task and every reply or feedback: a leading
 * slash command expanded (core/slash), then the blocks of the @-mentions (core/context/mentions.ts)
 * of the person's own words, not of a workflow's text. The chat keeps the text as typed. A URL
 * mention runs web_fetch through every step a model's call takes, its approval included.
 */
import { MentionExpander, type FetchedUrl } from "../../context/mentions";
import type { SlashCommands } from "../../slash";
import type { PersonWords, TaskParticipant } from "../../task/participant";
import type { TaskScope } from "../../task/task-scope";
import type { ToolResult } from "../../task/tools/types";

export class PersonText implements TaskParticipant {
  readonly name = "person-text";
  private readonly mentions: MentionExpander;

  constructor(
    private readonly scope: TaskScope,
    private readonly slash: SlashCommands,
  ) {
    this.mentions = new MentionExpander({
      roots: scope.roots,
      guard: scope.guard,
      host: scope.host,
      signal: scope.signal,
      fetchUrl: async (url) => fetched(await scope.callTool("web_fetch", { url })),
    });
  }

  async personWords(words: PersonWords): Promise<PersonWords> {
    const typed = words.text;
    if (typed === undefined) return words;
    const command = await this.slash.expand(typed, this.scope.signal);
    if (command?.note) await this.scope.say("info", command.note);
    const blocks = await this.mentions.blocks(typed);
    return { text: command?.text ?? typed, blocks: [...words.blocks, ...blocks] };
  }
}

function fetched(result: ToolResult): FetchedUrl {
  if (result.kind === "rejected") return { kind: "declined", ...(result.feedback?.text ? { said: result.feedback.text } : {}) };
  if (result.kind !== "ok") return { kind: "not_fetched" };
  const text = typeof result.content === "string" ? result.content : result.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
  return { kind: "ok", text };
}
