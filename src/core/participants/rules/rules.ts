/**
 * The rules' place in the loop (the seed: attemptApiRequest reads the rules files): before each
 * request the rules are read again (cheap when nothing changed: the reader's stat cache) and
 * become the prompt's last sections, the person's rules files and then their custom
 * instructions, so they apply from the next request after an edit. Their warnings (a file
 * skipped, what the size limit cut) are said in the chat once per change, not every round.
 */
import { rulesForPrompt, type LoadedRules } from "../../context/rules";
import type { TaskParticipant } from "../../task/participant";
import type { TaskScope } from "../../task/task-scope";
import { errorText } from "../../util/error-text";

export const NO_RULES: LoadedRules = { sources: [], files: [], warnings: [], customInstructions: "" };

export class RulesInLoop implements TaskParticipant {
  readonly name = "rules";
  /** The warnings last said, so the same ones are not said again each round. */
  private said = "";

  constructor(
    private readonly scope: TaskScope,
    /** Reads the rules files and the custom instructions as they are now. */
    private readonly read: () => Promise<LoadedRules>,
  ) {}

  async systemPrompt(): Promise<readonly string[]> {
    const rules = await this.readNow();
    const sections: string[] = [];
    const files = rulesForPrompt(rules).trim();
    if (files) sections.push(`THE PERSON'S RULES\n\nThe workspace's rules files (and the person's global ones), each under its name. Follow them on top of the rules above; where they disagree, the later file wins.\n\n${files}`);
    const custom = rules.customInstructions.trim();
    if (custom) sections.push(`THE PERSON'S INSTRUCTIONS\n\nFollow these on top of the rules above.\n\n${custom}`);
    return sections;
  }

  private async readNow(): Promise<LoadedRules> {
    let rules: LoadedRules;
    try {
      rules = await this.read();
    } catch (error) {
      // The reader turns bad files into warnings; anything else must not stop the task either.
      rules = { ...NO_RULES, warnings: [`The rules could not be read (${errorText(error)}); this request goes without them.`] };
    }
    const text = rules.warnings.join("\n");
    if (text !== this.said) {
      this.said = text;
      if (text) await this.scope.say("info", `Rules: ${rules.warnings.join(" ")}`);
    }
    return rules;
  }
}
