/**
 * The files a command line names and the files it writes, deletes, renames or links, as far as
 * the line itself tells: redirections, `rm`/`mv`/`cp`/`ln`/`tee`/`touch`/`truncate`/`chmod`,
 * `sed -i`, `dd of=`, `sort -o`, `curl -o`, `git config`. The ignore and guard-file checks judge
 * these (on the real paths); what a program writes of its own accord (a build, a script,
 * `tar x`) is not on the line, and not here.
 */
import * as path from "node:path";
import { downloadOutputs } from "./deny-chains";
import { WRITE_OPERATORS } from "./deny-devices";
import { DOWNLOADERS } from "./deny-download";
import { effectiveCommand, type EffectiveCommand } from "./effective-command";
import { parseOptions } from "./options";
import { resolveCwd, staticText } from "./resolve-words";
import type { ParsedScript, ShellArg, SimpleCommand } from "./shell-script";
import { absolutePath } from "./workspace-paths";

export interface CommandWord {
  /** The argument after quote removal and known variables (as written when only known at run time). */
  readonly text: string;
  /** The folder its command runs in; null when unknown. */
  readonly cwd: string | null;
  /** False for a read-only allow-listed command without write redirections. */
  readonly mayWrite: boolean;
}

export interface CommandFiles {
  /** Absolute paths the line writes, deletes, renames or links (globs kept as written). */
  readonly written: string[];
  /** Why a file the line writes is only known when it runs (`> $F`, `xargs rm`), or null. */
  readonly unknownWrite: string | null;
  /** Folders copied or moved into a destination (`cp -r payload/. .`): what they hold lands there. */
  readonly copies: { readonly from: string; readonly into: string }[];
  /** Every argument and redirection target of every command, nested ones included. */
  readonly words: CommandWord[];
}

export const NO_FILES: CommandFiles = { written: [], unknownWrite: null, words: [], copies: [] };

const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
/** Every operand is a file the command changes. */
const CHANGES_OPERANDS: Readonly<Record<string, string>> = {
  rm: "", rmdir: "", unlink: "", shred: "nsS", srm: "", truncate: "sr", touch: "dtr", mkdir: "m", mkfifo: "m", tee: "",
};
/** The first operand is a mode or an owner; the rest are changed. */
const CHANGES_AFTER_FIRST = new Set(["chmod", "chown", "chgrp", "chattr", "setfacl"]);
/** The last operand (or `-t DIR`) receives: cp, mv (which also removes its sources), install, ln. */
const DESTINATION = new Set(["cp", "mv", "install", "ln", "link", "rsync", "scp"]);

export function commandFiles(script: ParsedScript, ctx: { home: string; startCwd: string | null }, readOnly: (c: SimpleCommand) => boolean): CommandFiles {
  const written: string[] = [];
  let unknownWrite: string | null = null;
  const words: CommandWord[] = [];
  const copies: { from: string; into: string }[] = [];
  for (const command of script.commands) {
    const cwd = resolveCwd(ctx.startCwd, command.cd, ctx.home);
    const env = { home: ctx.home, cwd };
    const targets = writeTargets(command);
    const mayWrite = targets.args.length > 0 || targets.unknown !== null || !readOnly(command);
    for (const arg of [...command.args, ...command.redirections.map((r) => r.target)]) words.push({ text: staticText(arg) ?? arg.raw, cwd, mayWrite });
    unknownWrite ??= targets.unknown;
    for (const arg of targets.args) {
      const where = absolutePath(arg, env);
      if (where === null) unknownWrite ??= `\`${command.text}\` writes \`${arg.raw}\`, a path only known when it runs`;
      else written.push(where, ...targets.into.map((name) => path.posix.join(where, name)));
    }
    const into = targets.args[0] && targets.sources.length > 0 ? absolutePath(targets.args[0], env) : null;
    for (const source of into === null ? [] : targets.sources) {
      const from = absolutePath(source, env);
      if (from !== null) copies.push({ from, into: into as string });
    }
  }
  return { written, unknownWrite, words, copies };
}

interface Targets {
  /** What it writes; for a copy, the destination comes first. */
  readonly args: ShellArg[];
  /** Names it puts into a destination folder (`cp a b dest/` puts a and b). */
  readonly into: string[];
  /** What a copy or move takes into the destination. */
  readonly sources: ShellArg[];
}

/** What one command writes, and what cannot be known. */
function writeTargets(command: SimpleCommand): Targets & { unknown: string | null } {
  const redirected = command.redirections.filter(writesFile).map((r) => r.target);
  const effective = effectiveCommand(command.args);
  // A command name only known at run time is asked about (or refused in YOLO) on its own account.
  if (effective === null) return { args: redirected, into: [], sources: [], unknown: null };
  const own = commandTargets(effective);
  const unknown = own.args.length > 0 && effective.wrappers.includes("xargs") ? `\`xargs ${effective.name}\` takes the files it changes from its input` : null;
  // The copy's destination stays first, for `copies`.
  return { args: [...own.args, ...redirected], into: own.into, sources: own.sources, unknown };
}

function writesFile(redirection: { op: string; target: ShellArg }): boolean {
  if (!WRITE_OPERATORS.has(redirection.op)) return false;
  const target = staticText(redirection.target);
  if (redirection.op === ">&" && target !== null && /^(\d+|-)$/.test(target)) return false;
  return target === null || !HARMLESS_TARGETS.test(target);
}

function commandTargets(command: EffectiveCommand): Targets {
  const { name, args } = command;
  const only = (written: ShellArg[]): Targets => ({ args: written, into: [], sources: [] });
  const values = CHANGES_OPERANDS[name];
  if (values !== undefined) return only(parseOptions(args, { shortWithValue: values }).operands);
  if (CHANGES_AFTER_FIRST.has(name)) {
    const parsed = parseOptions(args);
    return only(parsed.long.includes("reference") ? parsed.operands : parsed.operands.slice(1));
  }
  if (DESTINATION.has(name)) return destination(command);
  if (name === "sed" || name === "perl") return only(inPlace(command) ? inPlaceFiles(command) : []);
  if (name === "dd" || name === "sort" || name === "tree" || name === "uniq") return only(outputOption(command));
  if (DOWNLOADERS.has(name)) return only(downloadOutputs(command).map(textArg));
  if (name === "git") return only(gitConfigTarget(args));
  return only([]);
}

/** `cp a b dest/` writes dest and dest/a, dest/b; `mv` also removes its sources. */
function destination(command: EffectiveCommand): Targets {
  const parsed = parseOptions(command.args, { shortWithValue: command.name === "rsync" ? "eBfTMz@" : "tSmogb", longWithValue: ["target-directory", "suffix", "mode", "owner", "group"] });
  const words = command.args.map((a) => staticText(a));
  const flagAt = words.findIndex((w) => w === "-t" || w === "--target-directory");
  const inline = words.find((w) => w?.startsWith("--target-directory="));
  const target = flagAt !== -1 ? command.args[flagAt + 1] : inline ? textArg(inline.slice("--target-directory=".length)) : parsed.operands.at(-1);
  const sources = flagAt !== -1 || inline ? parsed.operands : parsed.operands.slice(0, -1);
  if (target === undefined) return { args: [], into: [], sources: [] };
  // rsync and scp copy to remote places too (`host:path`): only local ones are files here.
  if (/^[^/]*:/.test(staticText(target) ?? "")) return { args: [], into: [], sources: [] };
  const into = sources.flatMap((s) => {
    const text = staticText(s);
    return text === null ? [] : [path.posix.basename(text)];
  });
  const removed = command.name === "mv" ? sources : [];
  return { args: [target, ...removed], into, sources: command.name === "ln" || command.name === "link" ? [] : sources };
}

function inPlace(command: EffectiveCommand): boolean {
  return command.args.some((a) => {
    const w = staticText(a) ?? "";
    return w === "--in-place" || w.startsWith("--in-place=") || (/^-[a-zA-Z]*i/.test(w) && !w.startsWith("--"));
  });
}

/** The files `sed -i` / `perl -pi` edit: the operands after the script. */
function inPlaceFiles(command: EffectiveCommand): ShellArg[] {
  const parsed = parseOptions(command.args, { shortWithValue: command.name === "sed" ? "efl" : "eEIMm" });
  const scriptGiven = /[ef]/.test(parsed.letters) || parsed.long.some((n) => n === "expression" || n === "file");
  return scriptGiven ? parsed.operands : parsed.operands.slice(1);
}

/** `dd of=F`, `sort -o F`, `tree -o F`, `uniq in out`. */
function outputOption(command: EffectiveCommand): ShellArg[] {
  const { name, args } = command;
  if (name === "dd") return args.flatMap((a) => (a.raw.startsWith("of=") ? [{ raw: a.raw.slice(3), parts: dropPrefix(a, 3) }] : []));
  if (name === "uniq") return parseOptions(args, { shortWithValue: "fsw" }).operands.slice(1);
  const words = args.map((a) => staticText(a));
  const out: ShellArg[] = [];
  words.forEach((w, i) => {
    if (w === "-o" && args[i + 1]) out.push(args[i + 1] as ShellArg);
    else if (w?.startsWith("--output=") && name === "sort") out.push(textArg(w.slice(9)));
    else if (w && /^-o./.test(w)) out.push(textArg(w.slice(2)));
  });
  return out;
}

/** `git config key value` writes the repository's .git/config (or `--file F`); reads write nothing. */
function gitConfigTarget(args: readonly ShellArg[]): ShellArg[] {
  const words = args.map((a) => staticText(a));
  let dir = ".";
  let at = 0;
  for (; at < words.length && (words[at] ?? "").startsWith("-"); at++) if (words[at] === "-C") dir = words[++at] ?? ".";
  if (words[at] !== "config") return [];
  const rest = words.slice(at + 1);
  const options = rest.filter((w) => w?.startsWith("-"));
  const operands = rest.filter((w) => !w?.startsWith("-"));
  if (options.some((o) => o === "--global" || o === "--system")) return [];
  const reads = options.some((o) => /^--(get|get-all|get-regexp|get-urlmatch|list|get-color|get-colorbool|show-origin|show-scope|name-only)$|^-l$/.test(o ?? ""));
  const writes = options.some((o) => /^--(unset|unset-all|add|replace-all|rename-section|remove-section|edit)$|^-e$/.test(o ?? ""));
  const subcommand = operands[0];
  const sets = writes || ["set", "unset", "rename-section", "remove-section", "edit"].includes(subcommand ?? "") || (!reads && operands.length >= 2 && subcommand !== "get" && subcommand !== "list");
  if (!sets) return [];
  const file = rest.findIndex((w) => w === "--file" || w === "-f");
  if (file !== -1) return [textArg(rest[file + 1] ?? "")];
  return [textArg(`${dir}/.git/config`)];
}

function dropPrefix(arg: ShellArg, length: number): ShellArg["parts"] {
  const [first, ...rest] = arg.parts;
  if (first?.kind !== "text") return [{ kind: "dynamic" }];
  return [{ ...first, value: first.value.slice(length) }, ...rest];
}

function textArg(value: string): ShellArg {
  return { raw: value, parts: [{ kind: "text", value, quoted: true }] };
}
