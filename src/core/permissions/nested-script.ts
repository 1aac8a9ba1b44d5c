/**
 * Shell code hidden in a string: `bash -c '…'`, `eval '…'`, `su -c '…'`, `trap '…' EXIT`,
 * `sh <<EOF … EOF`, `env -S '…'`, `watch '…'`, `alias x='…'`, `PROMPT_COMMAND='…'`, and the
 * command lines inline interpreter code runs (`os.system('…')`).
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
  const { name, args } = effective;
  const words = args.map((a) => staticText(a));
  const fixed = (what: string, found: (string | null)[]): EmbeddedCode =>
    found.some((s) => s === null) ? { scripts: [], unreadable: `${what} runs a script only known at run time` } : { scripts: found as string[], unreadable: null };
  if (name === "eval" || name === "watch") return fixed(`\`${name}\``, [joinedOperands(name, args)]);
  if (name === "su") return fixed("`su -c`", optionValue(words, ["-c", "--command"]));
  if (name === "env") return fixed("`env -S`", optionValue(words, ["-S", "--split-string"]));
  if (name === "alias") return fixed("`alias`", words.map((w) => (w === null ? null : w.includes("=") ? w.slice(w.indexOf("=") + 1) : "")));
  if (name === "trap") {
    // `trap 'code' EXIT` runs the code later, in this same shell.
    const code = words[0];
    return code === undefined || code?.startsWith("-") ? { scripts: [], unreadable: null } : fixed("`trap`", [code ?? null]);
  }
  const inline = programText(effective, command.redirections);
  if (inline !== null) {
    const out = shellOut(inline);
    return { scripts: out.scripts, unreadable: null };
  }
  if (!SHELLS.has(name)) return { scripts: [], unreadable: null };
  const parsed = parseOptions(args, { shortWithValue: "oO" });
  if (parsed.letters.includes("c")) return fixed(`\`${name} -c\``, [parsed.operands[0] ? staticText(parsed.operands[0]) : ""]);
  if (!readsProgramFromStdin(effective)) return { scripts: [], unreadable: null };
  // `bash <<EOF` and `bash <<< '…'`: the program arrives on standard input.
  const bodies = command.redirections.flatMap((r) => (r.op === "<<<" ? [staticText(r.target)] : r.heredoc && (r.op === "<<" || r.op === "<<-") ? [staticText(r.heredoc)] : []));
  return fixed(`\`${name}\``, bodies);
}

/** The scripts `command` will run from strings, when they are fixed text. */
export function embeddedScripts(command: SimpleCommand, effective: EffectiveCommand): string[] {
  return [...assignedCode(command).scripts, ...embeddedCode(command, effective).scripts];
}

/** `eval a b` runs "a b"; `watch -n 1 a b` runs "a b" through `sh -c`. */
function joinedOperands(name: string, args: readonly ShellArg[]): string | null {
  const operands = name === "watch" ? parseOptions(args, { shortWithValue: "nqd", longWithValue: ["interval", "differences"] }).operands : args;
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
