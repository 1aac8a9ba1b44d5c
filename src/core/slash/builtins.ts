/**
 * The built-in slash commands: what the menu says of each, and what the model is told when one is
 * sent. `/compact` is not expanded into text: it condenses at once (as a reply: context-in-loop.ts;
 * as a task's first message there is nothing to condense, and the task says so: first-message.ts).
 */

export interface BuiltinCommand {
  readonly name: string;
  readonly description: string;
  /** The instructions for the model; none: the command acts rather than tells (compact). */
  readonly instructions?: string;
}

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  {
    name: "newtask",
    description: "Hand this task's context to a new task",
    instructions:
      "The person wants to continue in a new task. Use the new_task tool now: its context must stand on its own — " +
      "the goal, what is done, what is left, the files involved, and the decisions and constraints so far. " +
      "Do nothing else before it.",
  },
  { name: "compact", description: "Condense the conversation now" },
  {
    name: "newrule",
    description: "Write a rules file from this conversation",
    instructions:
      "The person wants a rules file made from this conversation: the conventions, preferences and constraints " +
      "that should guide future tasks in this project (not this task's details). Write it with write_to_file to " +
      "`.clinerules/<name>.md`, where <name> is a short kebab-case name for its subject; do not overwrite an existing " +
      "rules file without reading it first. Use clear Markdown headings and short bullet points.",
  },
];

export function builtinCommand(name: string): BuiltinCommand | undefined {
  return BUILTIN_COMMANDS.find((command) => command.name === name);
}
