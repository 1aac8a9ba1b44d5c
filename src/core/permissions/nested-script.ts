/**
 * Shell code hidden in a string: `bash -c '…'`, `eval '…'`, `su -c '…'`, `trap '…' EXIT`,
 * `sh <<EOF … EOF`.
 * The deny rules parse it and judge it like the outer line.
 */
import type { EffectiveCommand } from "./effective-command";
import { SHELLS, readsProgramFromStdin } from "./deny-download";
import { parseOptions } from "./options";
import { staticText } from "./resolve-words";
import type { SimpleCommand } from "./shell-script";

/** The scripts `command` will run from strings, when they are fixed text. */
export function embeddedScripts(command: SimpleCommand, effective: EffectiveCommand): string[] {
  const { name, args } = effective;
  if (name === "eval") {
    const words = args.map((a) => staticText(a));
    return words.every((w) => w !== null) ? [words.join(" ")] : [];
  }
  if (name === "su") return optionValue(args.map((a) => staticText(a)), "-c", "--command");
  if (name === "trap") {
    // `trap 'code' EXIT` runs the code later, in this same shell.
    const code = args[0] ? staticText(args[0]) : null;
    return code === null || code.startsWith("-") ? [] : [code];
  }
  if (!SHELLS.has(name)) return [];
  const parsed = parseOptions(args, { shortWithValue: "oO" });
  if (parsed.letters.includes("c")) {
    const script = parsed.operands[0] ? staticText(parsed.operands[0]) : null;
    return script === null ? [] : [script];
  }
  if (!readsProgramFromStdin(effective)) return [];
  // `bash <<EOF` and `bash <<< '…'`: the program arrives on standard input.
  return command.redirections.flatMap((r) => {
    const body = r.op === "<<<" ? staticText(r.target) : r.heredoc && (r.op === "<<" || r.op === "<<-") ? staticText(r.heredoc) : null;
    return body === null ? [] : [body];
  });
}

function optionValue(words: (string | null)[], short: string, long: string): string[] {
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === short || word === long) return words[i + 1] ? [words[i + 1] as string] : [];
    if (word?.startsWith(`${long}=`)) return [word.slice(long.length + 1)];
  }
  return [];
}
