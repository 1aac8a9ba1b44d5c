/**
 * Where a slash command is in what the person typed: only at the very start of the message
 * (leading blank lines aside), a `/`, a name, then white space or the end. A `/` anywhere else, or
 * a path such as `/usr/bin`, is not a command.
 */

/** Names a command may have: what a workflow's file name may be (without .md), and `mcp:server:prompt`. */
export const COMMAND_NAME = /^[A-Za-z0-9][\w.:-]*$/;

export interface TypedCommand {
  /** Without the slash. */
  readonly name: string;
  /** What follows the command, trimmed at its start. */
  readonly rest: string;
}

export function parseSlashCommand(text: string): TypedCommand | undefined {
  const match = /^\s*\/([A-Za-z0-9][\w.:-]*)(?:\s+|$)/.exec(text);
  if (!match) return undefined;
  return { name: match[1]!, rest: text.slice(match[0].length) };
}

/** What a message that starts with a command becomes (a built-in, a workflow, an MCP prompt). */
export interface ExpandedCommand {
  /** The message as the model gets it: the command's block, then what the person typed after it. */
  readonly text: string;
  /** What the person should know (a workflow that could not be read, so the text went as typed). */
  readonly note?: string;
}
