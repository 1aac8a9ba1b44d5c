/**
 * The allow-list: rules of leading words ("ls", "git status") naming read-only commands, plus the
 * option guards for allow-listed commands that can still write or run programs.
 */
import { effectiveCommand, isElevation } from "./effective-command";
import { GUARDS, type AllowCheck } from "./option-guards";
import { staticText } from "./resolve-words";
import type { ShellArg } from "./shell-script";
import { allowRuleWords } from "./allow-rule-syntax";

export interface AllowRule {
  readonly words: readonly string[];
}

/** Never auto-approved, whatever the allow-list says: they run other code or other users' code. */
const NEVER_ALLOWED = new Set(["eval", "exec", "source", ".", "su"]);
/** git options that may precede the subcommand without changing what git runs. */
const GIT_HARMLESS_GLOBALS = new Set(["--no-pager", "--no-optional-locks", "--literal-pathspecs"]);
/** Bounds `xargs xargs xargs …`. */
const MAX_DEPTH = 3;

export function parseAllowList(list: readonly string[]): AllowRule[] {
  return list.map((rule) => {
    const parsed = allowRuleWords(rule);
    if ("problem" in parsed) throw typeof rule === "string" ? new Error(parsed.problem) : new TypeError(parsed.problem);
    return { words: parsed.words };
  });
}

/** Why `args` (one simple command) is not an allow-listed read-only command, or null when it is. */
export function whyNotAllowed(args: readonly ShellArg[], rules: readonly AllowRule[], depth = 0): string | null {
  const name = args[0] ? staticText(args[0]) : null;
  if (name === null) return "the command name is only known at run time";
  if (isElevation(name)) return `\`${name}\` runs a command with elevated privileges`;
  if (NEVER_ALLOWED.has(name)) return `\`${name}\` runs other code`;
  if (name.includes("/")) return `\`${name}\` is run by path, so it may not be the program the allow-list names`;
  const argv = name === "git" ? withoutGitGlobals(args) : args;
  if (argv === null) return "`git` with global options that can change what it runs";
  const words = argv.map((a) => staticText(a));
  if (!rules.some((rule) => rule.words.every((w, i) => words[i] === w))) {
    return `\`${describe(words)}\` is not on the read-only allow-list`;
  }
  const check = (inner: readonly ShellArg[]): string | null => (depth < MAX_DEPTH ? whyNotAllowed(inner, rules, depth + 1) : "nested too deeply");
  const guard = GUARDS[name];
  if (guard === undefined) return wrappedCommand(args, check);
  // A `$VAR` may split into any option: a guarded command must be fully spelled out.
  if (words.some((w) => w === null)) return `\`${name}\` has an argument only known at run time`;
  return guard(argv.slice(1), words.slice(1) as string[], check);
}

/** An allow-listed wrapper (`env`, `nice`, `timeout` on a custom list) is as safe as what it runs. */
function wrappedCommand(args: readonly ShellArg[], check: AllowCheck): string | null {
  if (args[0] && staticText(args[0]) === "env" && args.some((a) => /^(-[a-zA-Z]*S|--split-string)/.test(staticText(a) ?? ""))) return "`env -S` runs a command line given as a string";
  const effective = effectiveCommand(args);
  // A wrapper whose command, or whose own arguments, are only known at run time may run anything.
  if (effective === null) return `\`${staticText(args[0] as ShellArg) ?? ""}\` runs a command only known at run time`;
  if (effective.wrappers.length === 0) return null;
  const inner = [{ raw: effective.word, parts: [{ kind: "text" as const, value: effective.word, quoted: true }] }, ...effective.args];
  const reason = check(inner);
  return reason === null ? null : `\`${effective.wrappers.join(" ")}\` runs a command that is not allowed: ${reason}`;
}

/** `git --no-pager -C dir log` → `git log`; null for globals like `-c`, which can run programs. */
function withoutGitGlobals(args: readonly ShellArg[]): ShellArg[] | null {
  const rest = args.slice(1);
  for (let i = 0; i < rest.length; i++) {
    const word = staticText(rest[i] as ShellArg);
    if (word === null || !word.startsWith("-")) return [args[0] as ShellArg, ...rest.slice(i)];
    if (word === "-C") i++;
    else if (!GIT_HARMLESS_GLOBALS.has(word)) return null;
  }
  return [args[0] as ShellArg];
}

function describe(words: readonly (string | null)[]): string {
  const [first, second] = words;
  return second && /^[a-z][\w-]*$/.test(second) ? `${first} ${second}` : `${first}`;
}
