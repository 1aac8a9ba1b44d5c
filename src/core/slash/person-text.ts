/**
 * What the person typed, as the model gets it — the task and every reply or feedback: a leading
 * slash command expanded (commands.ts), then the @-mentions' blocks (context/mentions.ts). The
 * mentions are those of the person's own words, not of a workflow's text.
 */
import type { MentionExpander } from "../context/mentions";
import type { SlashCommands } from "./commands";

export class PersonText {
  constructor(
    private readonly slash: SlashCommands,
    private readonly mentions: Pick<MentionExpander, "blocks">,
    private readonly note: (text: string) => Promise<unknown>,
  ) {}

  /** The message for the model: its command expanded, then its mentions' blocks. */
  async forModel(text: string | undefined): Promise<string | undefined> {
    const body = text === undefined ? undefined : await this.expanded(text);
    const blocks = await this.mentions.blocks(text);
    return blocks.length === 0 ? body : [body ?? "", ...blocks].join("\n\n");
  }

  /** Just the command's expansion (the first message puts the mentions apart). */
  async expanded(text: string): Promise<string> {
    const command = await this.slash.expand(text);
    if (command?.note) await this.note(command.note);
    return command?.text ?? text;
  }
}
