/**
 * The rules' place in the loop (the seed: attemptApiRequest reads the rules files): before each
 * request the rules are read again (cheap when nothing changed: the reader's stat cache), and their
 * warnings (a file skipped, what the size limit cut) are said in the chat once per change, not
 * every round.
 */
import type { LoadedRules } from "../context/rules";
import { errorText } from "../util/error-text";

export const NO_RULES: LoadedRules = { sources: [], files: [], warnings: [], customInstructions: "" };

export interface RulesInLoopDeps {
  /** Reads the rules as they are now; none: the task has no rules. */
  readonly read?: () => Promise<LoadedRules>;
  note(text: string): Promise<unknown>;
}

export class RulesInLoop {
  /** The warnings last said, so the same ones are not said again each round. */
  private said = "";

  constructor(private readonly deps: RulesInLoopDeps) {}

  async beforeRequest(): Promise<LoadedRules> {
    if (!this.deps.read) return NO_RULES;
    let rules: LoadedRules;
    try {
      rules = await this.deps.read();
    } catch (error) {
      // The reader turns bad files into warnings; anything else must not stop the task either.
      rules = { ...NO_RULES, warnings: [`The rules could not be read (${errorText(error)}); this request goes without them.`] };
    }
    const text = rules.warnings.join("\n");
    if (text !== this.said) {
      this.said = text;
      if (text) await this.deps.note(`Rules: ${rules.warnings.join(" ")}`);
    }
    return rules;
  }
}
