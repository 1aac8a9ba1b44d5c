/**
 * Code given to an interpreter on the command line (`python3 -c`, `perl -e`, `node -e`, …). The
 * policy cannot run a Python or Perl parser, so these are patterns over the text, and say so:
 * they catch the plain forms (a fork loop, running what was downloaded, `os.system('rm -rf ~')`,
 * `shutil.rmtree` of a computed or outside path) and count anything built at run time as unreadable.
 */
import type { EffectiveCommand } from "./effective-command";
import { parseOptions } from "./options";
import { staticText } from "./resolve-words";
import type { Redirection } from "./shell-script";

export interface InlineCode {
  readonly interpreter: string;
  /** The code, or null when an argument is only known at run time (`python3 -c "$CODE"`). */
  readonly code: string | null;
}

/** For each interpreter, the option letters (and long names) whose value is code. */
const CODE_OPTIONS: ReadonlyArray<readonly [RegExp, string, readonly string[]]> = [
  [/^python[\d.]*$/, "c", []],
  [/^perl[\d.]*$/, "eE", []],
  [/^ruby[\d.]*$/, "e", []],
  [/^(node|nodejs|bun)$/, "ep", ["eval", "print"]],
  [/^php[\d.]*$/, "r", []],
  [/^lua[\d.]*$/, "e", []],
];

const AWK = /^[gmn]?awk$/;
/** `python3 - <<'EOF'`, `perl <<< '…'`: the program arrives on standard input. */
const READS_STDIN_PROGRAM = /^(python[\d.]*|perl[\d.]*|ruby[\d.]*|node|nodejs|php[\d.]*|lua[\d.]*)$/;

/**
 * The code an interpreter runs from the command line: `-c`/`-e` code, awk's program, or a
 * here-document or here-string it reads as its program. Null when it runs a script file.
 */
export function programText(command: EffectiveCommand, redirections: readonly Redirection[]): InlineCode | null {
  const inline = inlineCode(command);
  if (inline !== null) return inline;
  if (AWK.test(command.name)) {
    const parsed = parseOptions(command.args, { shortWithValue: "vFf" });
    if (parsed.letters.includes("f") || parsed.long.some((n) => n === "file")) return null;
    const program = parsed.operands[0];
    return program ? { interpreter: command.name, code: staticText(program) } : null;
  }
  if (!READS_STDIN_PROGRAM.test(command.name)) return null;
  const operands = parseOptions(command.args).operands.map((o) => staticText(o));
  if (operands.length > 0 && operands[0] !== "-") return null;
  const body = redirections.find((r) => r.op === "<<<" || (r.heredoc !== null && (r.op === "<<" || r.op === "<<-")));
  if (body === undefined) return null;
  return { interpreter: command.name, code: staticText(body.op === "<<<" ? body.target : (body.heredoc ?? body.target)) };
}

/** The code passed inline, or null when the command is not an interpreter given code. */
export function inlineCode(command: EffectiveCommand): InlineCode | null {
  const { name, args } = command;
  if (name === "deno" && args[0] && staticText(args[0]) === "eval") return joined(name, args.slice(1, 2).map(staticText));
  const spec = CODE_OPTIONS.find(([pattern]) => pattern.test(name));
  if (!spec) return null;
  const [, letters, longNames] = spec;
  const pieces: (string | null)[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = staticText(args[i] as (typeof args)[number]);
    if (word === null) {
      if (pieces.length > 0) pieces.push(null);
      continue;
    }
    const long = /^--([\w-]+)(?:=(.*))?$/s.exec(word);
    if (long && longNames.includes(long[1] as string)) {
      pieces.push(long[2] ?? (args[i + 1] ? staticText(args[++i] as (typeof args)[number]) : ""));
      continue;
    }
    if (!word.startsWith("-") || word.startsWith("--")) {
      if (pieces.length === 0 && !word.startsWith("-")) break; // a script file: nothing inline
      continue;
    }
    const at = [...word.slice(1)].findIndex((ch) => letters.includes(ch));
    if (at === -1) continue;
    const attached = word.slice(at + 2);
    pieces.push(attached !== "" ? attached : args[i + 1] ? staticText(args[++i] as (typeof args)[number]) : "");
  }
  return pieces.length === 0 ? null : joined(name, pieces);
}

function joined(interpreter: string, pieces: readonly (string | null)[]): InlineCode {
  return { interpreter, code: pieces.some((p) => p === null) ? null : pieces.join("\n") };
}

const ENDLESS = /while\s*\(?\s*(1|true|True)\b|for\s*\(\s*;\s*;\s*\)|\bloop\s*(\{|do\b)|while\s+fork|fork\s+while|until\s*\(?\s*(0|false)\b|iter\s*\(\s*int\s*,\s*1\s*\)|itertools\.(count|repeat|cycle)/;
const STARTS_PROCESS = /\bfork\b|\bspawn|Popen|\bsystem\s*\(|\bexec[lv]p?e?\s*\(/;
const NETWORK = /urlopen|urllib|urlretrieve|requests\.(get|post)|http\.client|httpx|LWP|HTTP::Tiny|Net::HTTP|open-uri|URI\.open|\bfetch\s*\(|https?\.(get|request)\s*\(|axios|IO::Socket|socket\.socket|file_get_contents\s*\(\s*['"]https?:/;
const RUNS_TEXT = /\bexec\s*\(|\beval\b|\bcompile\s*\(|new\s+Function|\bFunction\s*\(|vm\.run|runInThisContext|\bsystem\s*\(|popen|subprocess|child_process|spawn|Kernel\.exec|\bsh\b|\bbash\b|\bimport\s*\(|require\s*\(\s*[^'"`\s)]/;

/** Why the inline code must never run (a fork bomb, running a download), or null. */
export function inlineCodeDenial(inline: InlineCode): string | null {
  const { code, interpreter } = inline;
  if (code === null) return null;
  if (ENDLESS.test(code) && STARTS_PROCESS.test(code)) return `a fork bomb: \`${interpreter}\` code starts processes in an endless loop`;
  if (NETWORK.test(code) && RUNS_TEXT.test(code)) return `\`${interpreter}\` code downloads something and runs it`;
  return null;
}

const RECURSIVE_DELETE = /rmtree|rm_rf|rm_r\b|remove_tree|rmSync|rmdirSync|removedirs|remove_dir_all|FileUtils\.rm|\bfs\.rm\b|promises\.rm\b|rimraf/;
const RECURSIVE_DELETE_CALL = new RegExp(`(?:${RECURSIVE_DELETE.source})\\s*\\(?\\s*(['"])((?:\\\\.|(?!\\1)[^\\\\])*)\\1`, "g");

/** The literal paths the code deletes recursively: `shutil.rmtree('/')` gives `/`. */
export function inlineDeleteTargets(inline: InlineCode): string[] {
  return [...(inline.code ?? "").matchAll(RECURSIVE_DELETE_CALL)].map((m) => m[2] ?? "");
}
/** Signs that a path is computed or lies outside the workspace. */
const OUTSIDE = /~|homedir|expanduser|Path\.home|HOME|environ|getenv|process\.env|\$ENV|ENV\[|['"`]\/|\.\.|\bglob\b|argv|__file__|tmpdir|gettempdir/;
const STRING_LITERAL = /(['"])(?:\\.|(?!\1)[^\\\n])*\1/;
const GENERATED = /\bexec\s*\(|\beval\s*[({]|\bcompile\s*\(|new\s+Function|\bFunction\s*\(|b64decode|base64|fromhex|fromCharCode|\bchr\s*\(|\\x[0-9a-fA-F]{2}|unhexlify|codecs\.decode|marshal|pickle\.loads|__import__\s*\(\s*[^'"\s]/;

/** Why the guard cannot vouch for the inline code when nobody reviews it (YOLO), or null. */
export function inlineCodeBlindSpot(inline: InlineCode): string | null {
  const { code, interpreter } = inline;
  if (code === null) return `the \`${interpreter}\` code is only known when it runs`;
  if (RECURSIVE_DELETE.test(code) && (OUTSIDE.test(code) || !STRING_LITERAL.test(code))) {
    return `the \`${interpreter}\` code deletes folders recursively at a computed path or outside the workspace`;
  }
  if (GENERATED.test(code)) return `the \`${interpreter}\` code builds the code it runs (exec, eval, decoding), which the guard cannot read`;
  return shellOut(inline).dynamic ? `the \`${interpreter}\` code runs a shell command it builds at run time` : null;
}

/** Calls that run a shell command line given as their first argument. */
const SHELL_CALL = /(?:\bos\.system|\bos\.popen|\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|\b(?:system|popen|shell_exec|passthru|proc_open|execSync|exec|spawnSync|spawn|execFileSync|execFile)|\bIO\.popen|\bOpen3\.\w+)\b\s*\(?\s*/g;
/** Perl's and Ruby's backticks, `qx{}` and `%x()` run their text as a shell command. */
const BACKTICKS = /`([^`]*)`|\bqx\s*[({[/]([^)}\]/]*)[)}\]/]|%x[({[]([^)}\]]*)[)}\]]/g;

/** Shell command lines the inline code runs, as far as they are literal strings. */
export function shellOut(inline: InlineCode): { scripts: string[]; dynamic: boolean } {
  const code = inline.code ?? "";
  const scripts: string[] = [];
  let dynamic = false;
  for (const match of code.matchAll(SHELL_CALL)) {
    const rest = code.slice((match.index ?? 0) + match[0].length);
    const literal = rest.startsWith("[") ? listArgument(rest) : stringArgument(rest);
    if (literal === null) dynamic = true;
    else scripts.push(literal);
  }
  if (/^(perl|ruby)/.test(inline.interpreter)) {
    for (const match of code.matchAll(BACKTICKS)) scripts.push(match[1] ?? match[2] ?? match[3] ?? "");
  }
  if (AWK.test(inline.interpreter)) {
    // `"cmd" | getline` and `print | "cmd"` run cmd through sh; a pipe to anything else is unreadable.
    for (const match of code.matchAll(/"((?:\\.|[^"\\])*)"\s*\|\s*getline|\|\s*"((?:\\.|[^"\\])*)"/g)) scripts.push(match[1] ?? match[2] ?? "");
    const rest = code.replace(/"(?:\\.|[^"\\])*"\s*\|\s*getline/g, "");
    if (/(?<!\|)\|(?!\|)\s*(getline|[^"\s|&])/.test(rest)) dynamic = true;
  }
  return { scripts, dynamic };
}

/** `'rm -rf x'` at the start of `rest`, or null when the argument is not one literal string. */
function stringArgument(rest: string): string | null {
  const match = /^(['"])((?:\\.|(?!\1)[^\\])*)\1\s*([,);]|$)/.exec(rest);
  return match ? (match[2] as string).replace(/\\(.)/g, "$1") : null;
}

/** `['rm', '-rf', 'x']`: the words quoted for a shell, or null when one is not a literal. */
function listArgument(rest: string): string | null {
  const end = rest.indexOf("]");
  if (end === -1) return null;
  const items = rest.slice(1, end).split(",").map((item) => item.trim()).filter(Boolean);
  const words = items.map((item) => /^(['"])(.*)\1$/s.exec(item)?.[2] ?? null);
  return words.some((w) => w === null) ? null : words.map((w) => `'${(w as string).replace(/'/g, "'\\''")}'`).join(" ");
}
