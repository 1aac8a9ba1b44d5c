/** Short ways to write the corpus's cases, so each reads as one line of intent. */
import type { CallSpec, CliCase, Group, Mode, Outcome, PolicyCase } from "./types";

export const YOLO: Mode = { yolo: true };
/** Only the defaults (reading workspace files). */
export const NONE: Mode = {};
export const SAFE: Mode = { approve: ["command-safe"] };
export const ALL: Mode = { approve: ["command-all"] };
export const EDIT: Mode = { approve: ["edit"] };
export const READ_OUTSIDE: Mode = { approve: ["read-outside"] };
export const SAFE_READ_OUTSIDE: Mode = { approve: ["command-safe", "read-outside"] };

export const cmd = (command: string): CallSpec => ({ tool: "execute_command", params: { command } });
export const read = (path: string): CallSpec => ({ tool: "read_file", params: { path } });
export const write = (path: string, content = "overwritten\n"): CallSpec => ({ tool: "write_to_file", params: { path, content } });
/** A SEARCH that matches nothing: the tool's "closest region" error must not quote the file. */
export const replace = (path: string, search = "API_KEY=guess", replacement = "API_KEY=mine"): CallSpec => ({
  tool: "replace_in_file",
  params: { path, diff: `------- SEARCH\n${search}\n=======\n${replacement}\n+++++++ REPLACE` },
});
/** By default it looks for the secret and for what the workspace's own files hold, so a search that ran shows TODO. */
export const search = (path: string, regex = "SECRET|TODO", filePattern?: string): CallSpec => ({
  tool: "search_files",
  params: { path, regex, ...(filePattern ? { file_pattern: filePattern } : {}) },
});
export const list = (path: string, recursive = false): CallSpec => ({ tool: "list_files", params: { path, recursive: String(recursive) } });
export const defs = (path: string): CallSpec => ({ tool: "list_code_definition_names", params: { path } });
/** The same call streamed slowly: what an edit unprotected has been reloaded by the time it runs. */
export const later = (call: CallSpec): CallSpec => ({ ...call, delayMs: 120 });

export interface CliOptions {
  readonly links?: CliCase["links"];
  readonly shell?: CliCase["shell"];
  readonly noRipgrep?: boolean;
  readonly roots?: boolean;
  readonly mustSee?: string;
  readonly then?: readonly CallSpec[];
  readonly orElse?: Outcome;
  readonly note?: string;
}

export interface CaseBuilders {
  /** A case run end to end through the CLI. */
  e2e(id: string, expect: Outcome, mode: Mode, call: CallSpec, options?: CliOptions): CliCase;
  /** A command judged by the policy only: destructive if misjudged. */
  judged(id: string, expect: Outcome, mode: Mode, command: string, note?: string): PolicyCase;
}

/** The builders for one class of cases. */
export function casesOf(group: Group): CaseBuilders {
  return {
    e2e(id, expect, mode, call, options = {}) {
      const { then = [], ...rest } = options;
      return { run: "cli", id, group, expect, mode, calls: [call, ...then], ...rest };
    },
    judged(id, expect, mode, command, note) {
      return { run: "policy", id, group, expect, mode, command, ...(note ? { note } : {}) };
    },
  };
}
