/**
 * When a whole line may run without asking: every simple command is allow-listed, and nothing
 * writes through a redirection, substitutes a command, defines a function, changes what runs
 * through an environment prefix, or pipes into a shell or interpreter.
 */
import { whyNotAllowed, type AllowRule } from "./allow-rules";
import { WRITE_OPERATORS } from "./deny-devices";
import { isShellOrInterpreter } from "./deny-download";
import { effectiveCommand } from "./effective-command";
import { staticText } from "./resolve-words";
import type { ParsedScript, Redirection, ShellArg, ShellFeature, SimpleCommand } from "./shell-script";

const HARMLESS_WRITE_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"]);
/** Expansions that run or assign code (verified in bash 5.2). */
const RUNNING_EXPANSIONS: readonly (readonly [ShellFeature, string])[] = [
  ["prompt-expansion", "`${x@P}` expands a variable as a prompt, which runs any `$( )` in it"],
  ["assigning-expansion", "`${x=…}` and `${x:=…}` assign a variable, which can change what runs"],
  ["indirect-expansion", "`${!x}` reads the variable another variable names, and bash evaluates array subscripts in it"],
  ["subscript-code", "`a[$(…)]` as text: bash evaluates array subscripts (`test -v`, `[[ -eq ]]`, `$(( ))`, `printf -v`) and runs the `$( )` in them"],
];
/** Variables that only change formatting: anything else (PATH, LD_PRELOAD, GIT_PAGER, …) may change what runs. */
const HARMLESS_VARIABLE = /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|LINES|TERM)$/;

/** Why the line needs the person's approval, or null when it may run on its own. */
export function whyNotSafe(script: ParsedScript, rules: readonly AllowRule[], shell: { zshPossible: boolean }): string | null {
  if (script.commands.length === 0) return "there is no command to run";
  if (script.unsupported.length > 0) return `uses ${script.unsupported.join(", ")}, which the policy does not judge`;
  const expansion = RUNNING_EXPANSIONS.find(([feature]) => script.features.has(feature));
  if (expansion) return expansion[1];
  if (shell.zshPossible) {
    if (script.features.has("extglob")) return "in zsh, `*(…)` is a glob qualifier, which can run code (the terminal's shell may be zsh)";
    if (script.commands.some((c) => c.args.some(startsWithZshEquals))) return "in zsh, `=name` expands to the path of a program (the terminal's shell may be zsh)";
  }
  if (script.functionNames.length > 0) return `defines the shell function \`${script.functionNames[0]}\``;
  if (script.hasSubstitution) return "runs a command substitution ($( ), backticks or <( )), which is never auto-approved";
  const write = script.redirections.find(writesFile);
  if (write) return `writes to a file through the redirection \`${write.text}\``;
  for (const pipeline of script.pipelines) {
    for (const command of pipeline.stages.slice(1).flat()) {
      const name = effectiveCommand(command.args)?.name;
      if (name !== undefined && isShellOrInterpreter(name)) return `pipes into \`${name}\`, a shell or interpreter`;
    }
  }
  for (const command of script.commands) {
    const reason = commandNotSafe(command, rules);
    if (reason !== null) return reason;
  }
  return null;
}

/** True for an allow-listed read-only command (its redirections aside). */
export function isReadOnlyCommand(command: SimpleCommand, rules: readonly AllowRule[]): boolean {
  return commandNotSafe(command, rules) === null;
}

function commandNotSafe(command: SimpleCommand, rules: readonly AllowRule[]): string | null {
  const variable = command.assigns.find((name) => !HARMLESS_VARIABLE.test(name));
  if (variable !== undefined) return `sets \`${variable}\`, which can change what runs`;
  // A bare redirection (`< file`) runs nothing; `X=1` alone only sets a harmless variable.
  if (command.args.length === 0) return null;
  return whyNotAllowed(command.args, rules);
}

function writesFile(redirection: Redirection): boolean {
  if (!WRITE_OPERATORS.has(redirection.op)) return false;
  const target = staticText(redirection.target);
  // `2>&1`, `>&2`, `>&-`: duplicating or closing a descriptor writes nothing new.
  if (redirection.op === ">&" && target !== null && /^(\d+|-)$/.test(target)) return false;
  return target === null || !HARMLESS_WRITE_TARGETS.has(target);
}

function startsWithZshEquals(arg: ShellArg): boolean {
  const first = arg.parts[0];
  return first?.kind === "text" && !first.quoted && /^=[A-Za-z_(]/.test(first.value);
}
