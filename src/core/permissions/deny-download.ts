/** Deny rules for running code straight from the network: `curl … | sh`, `bash <(curl …)`. */
import { commandName, effectiveCommand, type EffectiveCommand } from "./effective-command";
import { parseOptions } from "./options";
import { staticText } from "./resolve-words";
import type { Pipeline, SimpleCommand } from "./shell-script";

export const DOWNLOADERS = new Set(["curl", "wget", "fetch", "http", "https", "xh"]);
export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh"]);
const INTERPRETER = /^(python[\d.]*|perl|ruby|node|nodejs|php|lua)$/;
/** Commands that run code given to them as an argument or file. */
const CODE_RUNNERS = new Set(["eval", "source", "."]);

export function isShellOrInterpreter(name: string): boolean {
  return SHELLS.has(name) || INTERPRETER.test(name);
}

/** True when the interpreter will read its program from standard input. */
export function readsProgramFromStdin(command: EffectiveCommand): boolean {
  const parsed = parseOptions(command.args);
  const operands = parsed.operands.map((o) => staticText(o));
  if (operands.includes("-")) return true;
  if (SHELLS.has(command.name)) return !parsed.letters.includes("c") && !parsed.long.includes("command") && (operands.length === 0 || parsed.letters.includes("s"));
  if (!INTERPRETER.test(command.name)) return false;
  const codeFlags = /[cmerE]/.test(parsed.letters) || parsed.long.some((n) => n === "eval" || n === "print");
  return !codeFlags && operands.length === 0;
}

export function pipelineDenial(pipeline: Pipeline): string | null {
  let downloader: string | null = null;
  for (const stage of pipeline.stages) {
    for (const command of stage) {
      const effective = effectiveCommand(command.args);
      if (effective === null) continue;
      if (downloader !== null && isShellOrInterpreter(effective.name) && readsProgramFromStdin(effective)) {
        return `pipes a download from \`${downloader}\` into \`${effective.name}\``;
      }
    }
    downloader ??= stage.map((c) => effectiveCommand(c.args)?.name ?? "").find((n) => DOWNLOADERS.has(n)) ?? null;
  }
  return null;
}

/** `bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(wget -O- …)"`, `source <(curl …)`. */
export function substitutedDownloadDenial(command: SimpleCommand, effective: EffectiveCommand): string | null {
  if (!isShellOrInterpreter(effective.name) && !CODE_RUNNERS.has(effective.name)) return null;
  const download = command.nested.map((c) => effectiveCommand(c.args)?.name ?? commandName(c.args[0])).find((n) => n !== null && DOWNLOADERS.has(n));
  return download ? `runs code downloaded by \`${download}\` in \`${effective.name}\`` : null;
}
