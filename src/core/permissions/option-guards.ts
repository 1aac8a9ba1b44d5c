/**
 * Allow-listed commands that can still write files or run programs through an option. A guard
 * returns why its command line is not read-only, or null when it is.
 */
import { abbreviates, parseOptions } from "./options";
import { staticText } from "./resolve-words";
import { isPrintOnlySedScript } from "./sed-script";
import type { ShellArg } from "./shell-script";

/** Judges another command line (for `xargs cmd`): why it is not allowed, or null. */
export type AllowCheck = (args: readonly ShellArg[]) => string | null;
/** `args` follow the command name; every one is fixed text. */
type Guard = (args: readonly ShellArg[], words: readonly string[], check: AllowCheck) => string | null;

const FIND_ACTIONS = new Set(["-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"]);
const GIT_BRANCH_READ = new Set(["-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--show-current", "-l", "--list", "--no-color", "--color", "--merged", "--no-merged", "--contains", "--no-contains"]);

export const GUARDS: Readonly<Record<string, Guard>> = {
  find: (_args, words) => {
    const action = words.find((w) => FIND_ACTIONS.has(w));
    return action ? `\`find ${action}\` deletes files, writes files or runs commands` : null;
  },
  sed: (args) => sedGuard(args),
  git: (_args, words) => gitGuard(words),
  sort: (args, words) => {
    const parsed = parseOptions(args, { shortWithValue: "kotST", longWithValue: ["key", "output", "field-separator", "buffer-size", "temporary-directory"] });
    if (parsed.letters.includes("o") || parsed.long.some((n) => abbreviates(n, "output", 2))) return "`sort -o` writes a file";
    if (parsed.long.some((n) => abbreviates(n, "compress-program", 2))) return "`sort --compress-program` runs a program";
    return optionValues(words, "S", "buffer-size", "kotST").some(overSortBuffer) ? "`sort -S` asks for a buffer of over 1 GB or half the memory" : null;
  },
  column: (_args, words) => {
    const widths = optionValues(words, "c", "output-width", "cCEHilnNoOprRsSTW");
    return widths.some((w) => !/^\d{1,4}$/.test(w) || Number(w) > MAX_COLUMN_WIDTH) ? `\`column -c\` over ${MAX_COLUMN_WIDTH} characters makes lines that long` : null;
  },
  uniq: (args) => (parseOptions(args, { shortWithValue: "fsw" }).operands.length > 1 ? "`uniq` with two files writes the second" : null),
  tree: (_args, words) => (words.some((w) => w === "-o" || w.startsWith("-o")) ? "`tree -o` writes a file" : null),
  date: (args) => {
    const parsed = parseOptions(args, { shortWithValue: "dfrs" });
    return parsed.letters.includes("s") || parsed.long.some((n) => abbreviates(n, "set", 2)) ? "`date -s` sets the clock" : null;
  },
  rg: (args) => {
    const parsed = parseOptions(args, { shortWithValue: "efgtTmABCjMEr" });
    if (parsed.long.some((n) => n === "pre" || n === "hostname-bin")) return "`rg --pre` and `--hostname-bin` run a program";
    return parsed.letters.includes("z") || parsed.long.includes("search-zip") ? "`rg -z` runs decompression programs on files" : null;
  },
  file: (args) => {
    const parsed = parseOptions(args, { shortWithValue: "emfFP" });
    if (/[zZ]/.test(parsed.letters) || parsed.long.some((n) => n.startsWith("uncompress"))) return "`file -z` runs decompression programs";
    return parsed.letters.includes("C") || parsed.long.includes("compile") ? "`file -C` writes a compiled magic file" : null;
  },
  less: (_args, words) => pagerGuard("less", words),
  more: (_args, words) => pagerGuard("more", words),
  man: (args) => {
    const parsed = parseOptions(args, { shortWithValue: "PHpTMmLSCeRrEI" });
    const runs = /[PHpXtT]/.test(parsed.letters) || parsed.long.some((n) => ["pager", "html", "preprocessor", "gxditview", "troff", "troff-device", "browser"].includes(n));
    return runs ? "`man` with a pager, browser or preprocessor option runs that program" : null;
  },
  printf: (_args, words) => (words[0] === "-v" || words[0]?.startsWith("-v") ? "`printf -v` sets a variable, which can change what runs" : null),
  jq: (_args, words) => (words.some((w) => /\$ENV\b|(^|[^.\w$])env\b/.test(w)) ? "`jq` with `env` or `$ENV` prints environment variables, which may hold keys" : null),
  xargs: (args, _words, check) => {
    const parsed = parseOptions(args, { shortWithValue: "adEILnPs", longWithValue: ["arg-file", "delimiter", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"] });
    // xargs reads options only before the command: the command starts at the first operand.
    const first = parsed.operands[0];
    const command = first ? args.slice(args.indexOf(first)) : [];
    if (command.length === 0) return null;
    const reason = check(command);
    return reason === null ? null : `\`xargs\` runs a command that is not allowed: ${reason}`;
  },
};

/** Widths `column -c` may take without asking: a screen's, with room to spare. */
const MAX_COLUMN_WIDTH = 1_000;
const GIB = 1024 ** 3;
/** GNU sort's SIZE suffixes; a bare number counts KiB. */
const SORT_UNITS: Readonly<Record<string, number>> = { b: 1, k: 1024, m: 1024 ** 2, g: GIB, t: 1024 ** 4, p: 1024 ** 5, e: 1024 ** 6, z: 1024 ** 7, y: 1024 ** 8, r: 1024 ** 9, q: 1024 ** 10 };

/** A `sort -S` value beyond 1 GiB or half of the memory, or one that cannot be read (which sort would refuse anyway). */
function overSortBuffer(value: string): boolean {
  const match = /^(\d+)(%|[bkmgtpezyrq])?$/i.exec(value);
  if (!match) return true;
  const number = Number(match[1]);
  if (match[2] === "%") return number > 50;
  return number * (SORT_UNITS[(match[2] ?? "k").toLowerCase()] ?? 1024) > GIB;
}

/**
 * Every value given to the short option `letter` or the long option `long` (or an abbreviation of
 * it): `-S 1G`, `-S1G`, `-nS1G`, `--buffer-size=1G`, `--buf 1G`. `withValue` lists the command's
 * short options that take a value, which end a cluster.
 */
function optionValues(words: readonly string[], letter: string, long: string, withValue: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === "--") break;
    if (word.startsWith("--")) {
      const [name = "", value] = word.slice(2).split(/=(.*)/s);
      if (!abbreviates(name, long, 3)) continue;
      if (value !== undefined) values.push(value);
      else values.push(words[++i] ?? "");
      continue;
    }
    if (!word.startsWith("-") || word.length < 2) continue;
    for (let at = 1; at < word.length; at++) {
      const option = word[at] as string;
      if (!withValue.includes(option)) continue;
      const value = at + 1 < word.length ? word.slice(at + 1) : (words[++i] ?? "");
      if (option === letter) values.push(value);
      break;
    }
  }
  return values;
}

function sedGuard(args: readonly ShellArg[]): string | null {
  const words = args.map((a) => staticText(a) ?? "");
  const scripts: string[] = [];
  let operands = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === "--in-place" || word.startsWith("--in-place=") || /^-[a-zA-Z]*i/.test(word) && !word.startsWith("--")) return "`sed -i` edits files in place";
    if (word === "-f" || word.startsWith("--file")) return "`sed -f` runs a script from a file";
    if (word === "-e" || word === "--expression") scripts.push(words[++i] ?? "");
    else if (word.startsWith("--expression=")) scripts.push(word.slice("--expression=".length));
    else if (/^-[nrEsuz]*e./.test(word)) scripts.push(word.slice(word.indexOf("e") + 1));
    else if (word.startsWith("-") && word.length > 1) {
      if (!/^(-[nrEsuz]+|--(quiet|silent|regexp-extended|separate|unbuffered|null-data|zero-terminated|posix|debug|sandbox))$/.test(word)) return `\`sed ${word}\` is an option the policy does not know`;
    } else if (operands++ === 0 && scripts.length === 0) scripts.push(word);
  }
  const unsafe = scripts.find((s) => !isPrintOnlySedScript(s));
  return unsafe === undefined ? null : `the sed script \`${unsafe}\` may write files or run commands`;
}

/** git options that name a program to run, or settings that can. */
const GIT_RUNS = /^--(upload-pack|receive-pack|exec|config-env|config|template|ext-diff|open-files-in-pager)(=|$)/;
/** Subcommands where `-u` names the program to run on the other side. */
const GIT_UPLOAD_PACK_U = new Set(["ls-remote", "fetch", "pull", "clone", "archive"]);

function gitGuard(words: readonly string[]): string | null {
  if (words.some((w) => w === "--output" || w.startsWith("--output="))) return "`git --output` writes a file";
  const runs = words.find((w) => GIT_RUNS.test(w));
  if (runs) return `\`git ${runs.split("=")[0]}\` can make git run a program`;
  const [sub, ...rest] = words;
  if (sub !== undefined && GIT_UPLOAD_PACK_U.has(sub) && rest.some((w) => w === "-u")) return "`git -u` names a program to run";
  if (sub === "grep" && rest.some((w) => w.startsWith("-O") || w.startsWith("--open-files-in-pager"))) return "`git grep -O` runs a program";
  if (sub === "branch") {
    const listing = rest.includes("--list") || rest.includes("-l");
    const unsafe = rest.find((w) => (w.startsWith("-") ? !GIT_BRANCH_READ.has(w) : !listing));
    return unsafe === undefined ? null : "`git branch` with these arguments changes branches";
  }
  if (sub === "remote" && rest.some((w) => w !== "-v" && w !== "--verbose")) return "`git remote` with these arguments changes remotes";
  return null;
}

/** `less +!cmd`, `less -k keys`, `less -o log`: commands at start, key bindings that run programs, log files. */
function pagerGuard(name: string, words: readonly string[]): string | null {
  const unsafe = words.find((w) => w.startsWith("+") || /^-[a-zA-Z]*[kKoO]/.test(w) || /^--(lesskey|log-file|LOG-FILE)/.test(w));
  return unsafe === undefined ? null : `\`${name} ${unsafe}\` can run commands or write files`;
}
