/**
 * Download, then run, on one line: `curl -o i.sh URL && sh i.sh`, `curl URL > i.sh; bash i.sh`,
 * `wget URL/x.sh; chmod +x x.sh; ./x.sh`. As dangerous as `curl … | sh`, spelled in two steps.
 */
import * as path from "node:path";
import { DOWNLOADERS, isShellOrInterpreter } from "./deny-download";
import { effectiveCommand, type EffectiveCommand } from "./effective-command";
import { parseOptions } from "./options";
import { expandArg, resolveCwd, staticText } from "./resolve-words";
import { WRITE_OPERATORS } from "./deny-devices";
import type { ParsedScript, ShellArg, SimpleCommand } from "./shell-script";

interface ChainContext {
  readonly home: string;
  readonly startCwd: string | null;
}

/** Why the line runs a file it downloaded, or null. */
export function downloadThenRunDenial(script: ParsedScript, ctx: ChainContext): string | null {
  const found = writtenThenRun(script, ctx, true);
  return found === null ? null : `runs \`${found.file}\`, which \`${found.writer}\` downloaded on this same line`;
}

/** A file the line writes and then runs as a program (`echo … > x.sh; sh x.sh`): its content is not on the line. */
export function generatedThenRun(script: ParsedScript, ctx: ChainContext): { file: string; writer: string } | null {
  return writtenThenRun(script, ctx, false);
}

function writtenThenRun(script: ParsedScript, ctx: ChainContext, downloadsOnly: boolean): { file: string; writer: string } | null {
  const fed = fedByDownloads(script);
  const written = new Map<string, string>();
  for (const command of script.commands) {
    const cwd = resolveCwd(ctx.startCwd, command.cd, ctx.home);
    const at = (arg: ShellArg | string): string | null => absolute(arg, { home: ctx.home, cwd });
    const effective = effectiveCommand(command.args);
    const ran = effective ? runFile(effective) : null;
    const writer = ran === null ? undefined : written.get(at(ran) ?? "");
    if (ran !== null && writer !== undefined) return { file: typeof ran === "string" ? ran : ran.raw, writer };
    const downloader = effective && DOWNLOADERS.has(effective.name) ? effective.name : fed.get(command);
    if (downloadsOnly && downloader === undefined) continue;
    const outputs = [...(effective && DOWNLOADERS.has(effective.name) ? downloadOutputs(effective) : []), ...writtenBy(command, effective)];
    for (const output of outputs) {
      const file = at(output);
      if (file !== null) written.set(file, downloader ?? effective?.name ?? "a redirection");
    }
  }
  return null;
}

/** Commands of a pipeline's later stages, fed by a download in an earlier one (`curl x | tee i.sh`). */
function fedByDownloads(script: ParsedScript): Map<SimpleCommand, string> {
  const fed = new Map<SimpleCommand, string>();
  for (const pipeline of script.pipelines) {
    let downloader: string | undefined;
    for (const stage of pipeline.stages) {
      if (downloader !== undefined) for (const command of stage) fed.set(command, downloader);
      downloader ??= stage.map((c) => effectiveCommand(c.args)?.name ?? "").find((n) => DOWNLOADERS.has(n));
    }
  }
  return fed;
}

/** Files the command writes: its write redirections, `tee`'s operands, where `cp`/`mv`/`install` put a file. */
function writtenBy(command: SimpleCommand, effective: EffectiveCommand | null): (ShellArg | string)[] {
  const redirected = command.redirections.filter((r) => WRITE_OPERATORS.has(r.op) && !/^(\d+|-)$/.test(staticText(r.target) ?? "")).map((r) => r.target);
  const name = effective?.name;
  const operands = effective ? parseOptions(effective.args, { shortWithValue: "tSm" }).operands : [];
  const copied = name === "cp" || name === "mv" || name === "install" || name === "ln" ? operands.slice(-1) : [];
  return [...redirected, ...(name === "tee" ? operands : []), ...copied];
}

/** Where curl and wget save what they fetch. */
export function downloadOutputs(command: EffectiveCommand): string[] {
  const words = command.args.map((a) => staticText(a));
  const urls = words.filter((w): w is string => w !== null && /^[a-z][a-z0-9+.-]*:\/\/|^www\./i.test(w));
  const outputs: string[] = [];
  let remoteName = command.name === "wget";
  let prefix = "";
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    const next = words[i + 1] ?? null;
    const curl = command.name !== "wget";
    const file = curl ? valueOf(word, next, "o", "output") : valueOf(word, next, "O", "output-document");
    if (file !== undefined) {
      if (file !== null && file !== "-") outputs.push(file);
      if (!word.includes("=") && /^-[a-zA-Z]*$/.test(word) || word === "--output" || word === "--output-document") i++;
      remoteName = false;
      continue;
    }
    if (curl && (word === "--remote-name" || word === "--remote-name-all" || /^-[a-zA-Z]*O[a-zA-Z]*$/.test(word))) remoteName = true;
    const dir = curl ? valueOf(word, next, "", "output-dir") : valueOf(word, next, "P", "directory-prefix");
    if (dir) prefix = `${dir}/`;
  }
  if (remoteName) for (const url of urls) outputs.push(`${prefix}${path.posix.basename(url.replace(/[?#].*$/, "")) || "index.html"}`);
  return outputs;
}

/** The value of `-x V`, `-abcx V`, `-xV`, `--long V` or `--long=V`; undefined when `word` is not that option. */
function valueOf(word: string, next: string | null, short: string, long: string): string | null | undefined {
  if (word === `--${long}`) return next;
  if (word.startsWith(`--${long}=`)) return word.slice(long.length + 3);
  if (short === "" || !/^-[a-zA-Z]/.test(word) || word.startsWith("--")) return undefined;
  const at = word.indexOf(short, 1);
  if (at === -1 || !/^[a-zA-Z]*$/.test(word.slice(1, at))) return undefined;
  return at === word.length - 1 ? next : word.slice(at + 1);
}

/** The file a command runs as a program: `sh x.sh`, `python3 x.py`, `source x`, `./x`. */
export function runFile(command: EffectiveCommand): ShellArg | string | null {
  if (command.name === "source" || command.name === ".") return command.args[0] ?? null;
  if (command.word.includes("/")) return command.word;
  if (!isShellOrInterpreter(command.name)) return null;
  const parsed = parseOptions(command.args, { shortWithValue: "oOmW" });
  if (/[ceE]/.test(parsed.letters)) return null;
  return parsed.operands[0] ?? null;
}

function absolute(arg: ShellArg | string, env: { home: string; cwd: string | null }): string | null {
  const value = typeof arg === "string" ? arg : expandArg(arg, env, "known");
  if (value === null || value === "") return null;
  if (value.startsWith("/")) return path.posix.normalize(value);
  return env.cwd === null ? null : path.posix.join(env.cwd, value);
}
