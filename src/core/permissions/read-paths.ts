/**
 * Which arguments of a read-only command name files it reads: `cat a b` reads a and b, but
 * `grep /api/ src` searches for "/api/" in src, and `head -n 5` takes a number. Commands the
 * table does not know are judged by the arguments that look like paths (`/x`, `~/x`, `../x`).
 */
import { findPlan } from "./deny-delete";
import type { EffectiveCommand } from "./effective-command";
import { parseOptions, type OptionSpec } from "./options";
import { staticText } from "./resolve-words";
import type { ShellArg } from "./shell-script";

/** Commands that read no files: their arguments are text, names or numbers. */
export const READS_NO_FILES = new Set([
  "echo", "printf", "true", "false", "date", "whoami", "id", "uname", "pwd", "which", "basename", "dirname",
  "cd", "pushd", "popd", "test", "[", "[[", "((", "tr", "type", "command", "hash", "sleep", "seq", "expr", "df", "nproc", "hostname", "tty",
]);

interface ReaderSpec extends OptionSpec {
  /** The first operand is a pattern, script or filter unless one of these options gives it. */
  readonly patternFirst?: { readonly shorts: string; readonly longs: readonly string[] };
  /** Options whose value is a file the command reads (`grep -f FILE`). */
  readonly pathShorts?: string;
  readonly pathLongs?: readonly string[];
}

const GREP: ReaderSpec = {
  shortWithValue: "efmABCdD",
  longWithValue: ["regexp", "file", "max-count", "after-context", "before-context", "context", "devices", "directories", "label", "group-separator", "binary-files", "exclude", "include", "exclude-dir", "exclude-from"],
  patternFirst: { shorts: "ef", longs: ["regexp", "file"] },
  pathShorts: "f",
  pathLongs: ["file", "exclude-from"],
};

const READERS: Readonly<Record<string, ReaderSpec>> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    shortWithValue: "efgtTmABCjMEr",
    longWithValue: ["regexp", "file", "glob", "iglob", "type", "type-not", "max-count", "after-context", "before-context", "context", "threads", "max-columns", "encoding", "replace", "ignore-file", "type-add", "max-depth", "max-filesize", "sort", "sortr", "colors", "color", "engine", "pre-glob"],
    patternFirst: { shorts: "ef", longs: ["regexp", "file"] },
    pathShorts: "f",
    pathLongs: ["file", "ignore-file"],
  },
  sed: { shortWithValue: "efls", longWithValue: ["expression", "file", "line-length"], patternFirst: { shorts: "ef", longs: ["expression", "file"] }, pathShorts: "f", pathLongs: ["file"] },
  jq: { shortWithValue: "fL", longWithValue: ["from-file", "indent"], patternFirst: { shorts: "f", longs: ["from-file"] }, pathShorts: "f", pathLongs: ["from-file"] },
  head: { shortWithValue: "nc", longWithValue: ["lines", "bytes"] },
  tail: { shortWithValue: "ncs", longWithValue: ["lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"] },
  cut: { shortWithValue: "bcdf", longWithValue: ["bytes", "characters", "delimiter", "fields", "output-delimiter"] },
  sort: { shortWithValue: "kotST", longWithValue: ["key", "output", "field-separator", "buffer-size", "temporary-directory", "parallel", "batch-size"], pathLongs: ["files0-from", "random-source"] },
  uniq: { shortWithValue: "fsw", longWithValue: ["skip-fields", "skip-chars", "check-chars", "group"] },
  wc: { pathLongs: ["files0-from"] },
  du: { shortWithValue: "dBtX", longWithValue: ["max-depth", "block-size", "threshold", "exclude", "time", "time-style"], pathShorts: "X", pathLongs: ["exclude-from", "files0-from"] },
  tree: { shortWithValue: "LIPo", longWithValue: ["filelimit", "charset", "timefmt", "sort"], pathLongs: ["fromfile"] },
  ls: { shortWithValue: "ITw", longWithValue: ["ignore", "hide", "width", "tabsize", "format", "sort", "time", "time-style", "color", "indicator-style", "quoting-style", "block-size"] },
  nl: { shortWithValue: "bdfhilnpsvw" },
  column: { shortWithValue: "cstoRNOEHW" },
  file: { shortWithValue: "emfFP", pathShorts: "mf", pathLongs: ["magic-file", "files-from"] },
  stat: { shortWithValue: "c", longWithValue: ["format", "printf"] },
  diff: { shortWithValue: "UCFIxXLSD", longWithValue: ["label", "ignore-matching-lines", "exclude", "starting-file"], pathShorts: "X", pathLongs: ["exclude-from", "from-file", "to-file"] },
  cmp: { shortWithValue: "inI", longWithValue: ["ignore-initial", "bytes"] },
  cat: {},
  realpath: { pathLongs: ["relative-to", "relative-base"] },
  readlink: {},
  xargs: { shortWithValue: "adEILnPs", longWithValue: ["delimiter", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var", "eof", "replace"], pathShorts: "a", pathLongs: ["arg-file"] },
};

const CURRENT_FOLDER: ShellArg = { raw: ".", parts: [{ kind: "text", value: ".", quoted: true }] };

/** What a read-only command reads: the files it names, and whether it reads the folder it runs in. */
export function readPaths(command: EffectiveCommand): { paths: ShellArg[]; readsCwd: boolean } {
  const { name, args } = command;
  if (READS_NO_FILES.has(name)) return { paths: [], readsCwd: false };
  if (name === "find") return { paths: findPlan(command)?.starts ?? [CURRENT_FOLDER], readsCwd: true };
  if (name === "git") return { paths: gitPaths(args), readsCwd: true };
  const spec = READERS[name];
  if (spec === undefined) return { paths: outsideLookingAll(args), readsCwd: true };
  if (name === "xargs") return { paths: optionPaths(args, spec), readsCwd: true };
  const parsed = parseOptions(args, spec);
  const given = spec.patternFirst && (parsed.letters.split("").some((l) => spec.patternFirst?.shorts.includes(l)) || parsed.long.some((n) => spec.patternFirst?.longs.includes(n)));
  const operands = spec.patternFirst && !given ? parsed.operands.slice(1) : parsed.operands;
  return { paths: [...operands, ...optionPaths(args, spec)], readsCwd: true };
}

/** The values of options that name files (`-f FILE`, `--file=FILE`). */
function optionPaths(args: readonly ShellArg[], spec: ReaderSpec): ShellArg[] {
  const out: ShellArg[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = staticText(args[i] as ShellArg);
    if (word === null) continue;
    const long = /^--([\w-]+)(=(.*))?$/s.exec(word);
    if (long) {
      if (!spec.pathLongs?.includes(long[1] as string)) continue;
      if (long[2] !== undefined) out.push(textArg(long[3] ?? ""));
      else if (args[i + 1]) out.push(args[++i] as ShellArg);
      continue;
    }
    const short = /^-([a-zA-Z]+)$/.exec(word)?.[1];
    const letter = short?.split("").find((l) => spec.pathShorts?.includes(l));
    if (short === undefined || letter === undefined) continue;
    const attached = short.slice(short.indexOf(letter) + 1);
    if (attached !== "") out.push(textArg(attached));
    else if (args[i + 1]) out.push(args[++i] as ShellArg);
  }
  return out;
}

/** `git -C dir …` and any argument that looks like a path outside (`git diff --no-index /etc/x`). */
function gitPaths(args: readonly ShellArg[]): ShellArg[] {
  const out: ShellArg[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = staticText(args[i] as ShellArg);
    if (word === "-C" && args[i + 1]) out.push(args[++i] as ShellArg);
    else out.push(...outsideLookingAll([args[i] as ShellArg]));
  }
  return out;
}

/** The place an argument names when it could be outside the folder: absolute, under `~`, climbing with `..`; also `--opt=/x`. */
function outsideLooking(arg: ShellArg): ShellArg | null {
  if (arg.parts[0]?.kind === "param") return arg; // `$HOME/x`: resolved (or found unknown) by the caller
  const word = staticText(arg);
  if (word === null) return null;
  const value = /^--[\w-]+=(.*)$/s.exec(word)?.[1];
  const place = value === undefined ? word : value;
  if (!/^(\/|~)/.test(place) && !place.split("/").includes("..")) return null;
  return value === undefined ? arg : { raw: value, parts: [{ kind: "text", value, quoted: !value.startsWith("~") }] };
}

function outsideLookingAll(args: readonly ShellArg[]): ShellArg[] {
  return args.flatMap((a) => outsideLooking(a) ?? []);
}

function textArg(value: string): ShellArg {
  return { raw: value, parts: [{ kind: "text", value, quoted: true }] };
}
