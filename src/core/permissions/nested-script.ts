/**
 * Shell code hidden in a string: `bash -c '…'`, `eval '…'`, `su -c '…'`, `trap '…' EXIT`,
 * `sh <<EOF … EOF`, `env -S '…'`, `watch '…'`, `alias x='…'`, `bind -x`, `ssh host '…'`,
 * `tmux new '…'`, `at <<EOF`, `PROMPT_COMMAND='…'`, and the command lines inline interpreter code
 * runs (`os.system('…')`).
 * The deny rules parse it and judge it like the outer line; a string only known at run time is
 * reported, for YOLO without a sandbox to refuse.
 */
import type { EffectiveCommand } from "./effective-command";
import { SHELLS, readsProgramFromStdin } from "./deny-download";
import { programText, shellOut } from "./inline-code";
import { parseOptions } from "./options";
import { staticText } from "./resolve-words";
import type { ShellArg, SimpleCommand } from "./shell-script";

export interface EmbeddedCode {
  /** The scripts, where they are fixed text. */
  readonly scripts: string[];
  /** What runs code the guard cannot read (`sh -c "$x"`), or null. */
  readonly unreadable: string | null;
}

/** Variables whose value the shell runs (PROMPT_COMMAND) or expands as a prompt, running `$( )` in it. */
const CODE_VARIABLES = new Set(["PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT", "RPROMPT", "RPS1"]);

/** Shell code in the values this command assigns to code-running variables. */
export function assignedCode(command: SimpleCommand): EmbeddedCode {
  const scripts: string[] = [];
  let unreadable: string | null = null;
  for (const { name, value } of command.assignments) {
    if (!CODE_VARIABLES.has(name)) continue;
    const text = value ? staticText(value) : null;
    if (text === null) unreadable ??= `\`${name}\` gets a value only known at run time, and the shell runs it`;
    else scripts.push(text);
  }
  return { scripts, unreadable };
}

/** The scripts `command` will run from strings. */
export function embeddedCode(command: SimpleCommand, effective: EffectiveCommand): EmbeddedCode {
  const handler = STRING_RUNNERS[effective.name];
  if (handler) return handler(effective.args.map((a) => staticText(a)), effective.args, command);
  const inline = programText(effective, command.redirections);
  if (inline !== null) return { scripts: shellOut(inline).scripts, unreadable: null };
  if (SHELLS.has(effective.name)) return shellScript(command, effective);
  return NONE;
}

type Handler = (words: (string | null)[], args: readonly ShellArg[], command: SimpleCommand) => EmbeddedCode;

const NONE: EmbeddedCode = { scripts: [], unreadable: null };
/** Paths that are the command's own standard input: `bash /dev/stdin <<< '…'` runs the here-string. */
const STDIN_PATHS = new Set(["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]);

function fixed(what: string, found: (string | null)[]): EmbeddedCode {
  return found.some((s) => s === null) ? { scripts: [], unreadable: `${what} runs a script only known at run time` } : { scripts: found as string[], unreadable: null };
}

/** Programs that run a command line given to them as a string (or read one from standard input). */
const STRING_RUNNERS: Readonly<Record<string, Handler>> = {
  eval: (_w, args) => fixed("`eval`", [joinedOperands(args)]),
  watch: (_w, args) => fixed("`watch`", [joinedOperands(parseOptions(args, { shortWithValue: "nqd", longWithValue: ["interval", "differences"] }).operands)]),
  su: (words) => fixed("`su -c`", optionValue(words, ["-c", "--command"])),
  script: (words) => fixed("`script -c`", optionValue(words, ["-c", "--command"])),
  env: (words) => fixed("`env -S`", optionValue(words, ["-S", "--split-string"])),
  alias: (words) => fixed("`alias`", words.map((w) => (w === null ? null : w.includes("=") ? w.slice(w.indexOf("=") + 1) : ""))),
  // `bind -x '"\C-m": cmd'` runs cmd at a key press: Enter, say.
  bind: (words) => fixed("`bind -x`", optionValue(words, ["-x"]).map((b) => (b === null ? null : b.slice(b.indexOf(":") + 1)))),
  trap: (words) => {
    // `trap 'code' EXIT` runs the code later, in this same shell.
    const code = words[0];
    return code === undefined || code?.startsWith("-") ? NONE : fixed("`trap`", [code ?? null]);
  },
  // The remote command runs in a shell there, and the host may be this machine.
  ssh: (_w, args) => {
    const operands = parseOptions(args, { shortWithValue: "BbcDEeFIiJLlmOoPpQRSWw" }).operands;
    return operands.length > 1 ? fixed("`ssh`", [joinedOperands(operands.slice(1))]) : NONE;
  },
  tmux: (words, args) => {
    const at = words.findIndex((w) => w !== null && TMUX_RUNS.has(w));
    if (at === -1) return NONE;
    const operands = parseOptions(args.slice(at + 1), { shortWithValue: "tsncFxyeilpSbT" }).operands;
    return operands.length > 0 ? fixed("`tmux`", [joinedOperands(operands)]) : NONE;
  },
  at: (_w, _a, command) => fixed("`at`", stdinBodies(command)),
  batch: (_w, _a, command) => fixed("`batch`", stdinBodies(command)),
  source: (words, _a, command) => (STDIN_PATHS.has(words[0] ?? "") ? fixed("`source`", stdinBodies(command)) : NONE),
  ".": (words, _a, command) => (STDIN_PATHS.has(words[0] ?? "") ? fixed("`.`", stdinBodies(command)) : NONE),
};

const TMUX_RUNS = new Set(["new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "run-shell", "run"]);

/** `bash -c '…'`, `bash <<EOF`, `bash /dev/stdin <<< '…'`; a script only known at run time (`bash <(…)`). */
function shellScript(command: SimpleCommand, effective: EffectiveCommand): EmbeddedCode {
  const { name, args } = effective;
  const parsed = parseOptions(args, { shortWithValue: "oO" });
  if (parsed.letters.includes("c")) return fixed(`\`${name} -c\``, [parsed.operands[0] ? staticText(parsed.operands[0]) : ""]);
  const first = parsed.operands[0];
  const script = first ? staticText(first) : undefined;
  if (script === null) return { scripts: [], unreadable: `\`${name}\` runs a script only known at run time` };
  if (!readsProgramFromStdin(effective) && !STDIN_PATHS.has(script ?? "")) return NONE;
  return fixed(`\`${name}\``, stdinBodies(command));
}

/** What arrives on standard input from a here-document or here-string. */
function stdinBodies(command: SimpleCommand): (string | null)[] {
  return command.redirections.flatMap((r) => (r.op === "<<<" ? [staticText(r.target)] : r.heredoc && (r.op === "<<" || r.op === "<<-") ? [staticText(r.heredoc)] : []));
}

/** The scripts `command` will run from strings, when they are fixed text. */
export function embeddedScripts(command: SimpleCommand, effective: EffectiveCommand): string[] {
  return [...assignedCode(command).scripts, ...embeddedCode(command, effective).scripts];
}

/** `eval a b` runs "a b"; so do `watch a b`, `ssh host a b`, `tmux new a b` (through a shell). */
function joinedOperands(operands: readonly ShellArg[]): string | null {
  const words = operands.map((a) => staticText(a));
  return words.some((w) => w === null) ? null : words.join(" ");
}

function optionValue(words: (string | null)[], names: readonly string[]): (string | null)[] {
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === null || word === undefined) continue;
    if (names.includes(word)) return [words[i + 1] ?? ""];
    const long = names.find((n) => n.startsWith("--") && word.startsWith(`${n}=`));
    if (long) return [word.slice(long.length + 1)];
  }
  return [];
}
