/**
 * Gitignore-syntax rules compiled with the `ignore` package, one line at a time, so a line the
 * package cannot handle is reported and skipped instead of breaking every other rule.
 */
import ignore, { type Ignore } from "ignore";
import { errorText } from "../util/error-text";

export interface CompiledRules {
  readonly rules: Ignore;
  /** Lines that were skipped, with why (for a warning; never thrown). */
  readonly problems: readonly string[];
}

export function compileIgnoreRules(text: string, source: string): CompiledRules {
  const rules = ignore();
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "" || line.startsWith("#")) return;
    try {
      // The package compiles a pattern lazily: probe it alone first, so a bad line fails here.
      ignore().add(line).ignores("probe");
      rules.add(line);
    } catch (error) {
      problems.push(`${source}:${index + 1}: skipped "${line}" (${errorText(error)})`);
    }
  });
  return { rules, problems };
}

/** Outcome of one rule set for a path: a match, a `!` re-include, or no opinion. */
export function ruleVerdict(rules: Ignore, relativePath: string): "ignored" | "unignored" | undefined {
  const result = rules.test(relativePath);
  if (result.ignored) return "ignored";
  return result.unignored ? "unignored" : undefined;
}
