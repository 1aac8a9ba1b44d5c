import { extractCommands } from "./extract-commands";
import type { ParsedScript } from "./shell-script";
import { parseBash, ShellSyntaxError, withGopherStacks } from "./sh-nodes";
import { SourceText } from "./source-text";
import { errorText } from "../util/error-text";

export type ParseResult = { readonly ok: true; readonly script: ParsedScript } | { readonly ok: false; readonly error: string };

/** Parses a command line as Bash and lists what it runs. Synchronous. */
export function parseShell(command: string): ParseResult {
  return withGopherStacks((): ParseResult => {
    try {
      return { ok: true, script: extractCommands(parseBash(command), new SourceText(command)) };
    } catch (error) {
      if (error instanceof ShellSyntaxError) return { ok: false, error: error.message };
      // The parser is Go code compiled to JavaScript: a panic on odd input arrives as an Error.
      const message = errorText(error);
      return { ok: false, error: `the shell parser failed: ${message}` };
    }
  });
}
