/**
 * What a rule of the command allow-list may look like (`tandem.commandAllowList`, the CLI's
 * `--allow-command`): the leading words of a read-only command, such as "git status". Checked
 * where a rule is typed (the CLI's arguments) and where the policy reads it (allow-rules.ts). Imports
 * nothing: the CLI's argument parsing stays light.
 */

/** A rule's words, or why it is not one. */
export function allowRuleWords(rule: unknown): { words: string[] } | { problem: string } {
  if (typeof rule !== "string") return { problem: `allowList entries must be strings, got ${typeof rule}` };
  const words = rule.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { problem: "allowList has an empty rule" };
  const odd = words.find((w) => /[^\w@%+=:,./[\]-]/.test(w));
  if (odd !== undefined) return { problem: `allowList rule "${rule}" contains "${odd}": rules are plain command words, such as "git status"` };
  return { words };
}
