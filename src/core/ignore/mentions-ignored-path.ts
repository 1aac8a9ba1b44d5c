/**
 * What a shell command line names, judged by the ignore rules and the guard's own files, so the
 * approval wiring can insist on asking, even in YOLO: `cat .env` must not slip through, nor
 * `rm .tandemignore` or `echo x > .git/hooks/pre-commit`. Words are judged where their command
 * runs (after `cd`) and where they really land (the ignore controller and `guardedChangeNote`
 * follow links). The command policy says which files the line writes; besides, any word of a
 * command that may write and that names a guard file counts (`python3 -c "open('.tandemignore','w')"`).
 * Heuristics over words, not a shell: they err towards finding a path.
 */
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import type { CommandFiles } from "../permissions";
import type { PathGuard } from "./path-guard";
import { GUARD_FOLDERS, GUARD_SUBFOLDERS, guardedChangeNote } from "./guard-files";
import { IGNORE_FILE_NAMES } from "./ignore-file-names";

export interface RootedPathGuard extends PathGuard {
  /** Relative words in the command resolve against this folder. */
  readonly root: string;
}

/**
 * The first word of `command` that resolves to an ignored path, as written; undefined if none.
 * With the policy's `files`, words inside strings and after `cd` count too.
 */
export function mentionsIgnoredPath(command: string, controller: RootedPathGuard, files?: CommandFiles): string | undefined {
  for (const word of shellWords(command)) {
    for (const candidate of pathCandidates(word)) {
      if (resolvesToIgnored(path.resolve(controller.root, candidate), controller)) return word;
    }
  }
  for (const word of files?.words ?? []) {
    for (const token of pathTokens(word.text)) {
      if (resolvesToIgnored(path.resolve(word.cwd ?? controller.root, token), controller)) return token;
    }
  }
  return undefined;
}

/**
 * Why the person must approve the line because it would write, delete, rename or link one of the
 * guard's own files (`guard-files.ts`), or undefined. A file it writes that is only known when it
 * runs counts too: the guard cannot tell it is not one.
 */
export function guardedCommandNote(files: CommandFiles, workspaceRoots: readonly string[]): string | undefined {
  // Relative words resolve where commands start: the primary folder.
  const workspaceRoot = workspaceRoots[0] ?? process.cwd();
  const named = files.written.flatMap(expandGlob);
  // `cp -r payload/. .`: what the copied folder holds lands in the destination.
  for (const { from, into } of files.copies) named.push(...listFolder(from).map((name) => path.join(into, name)));
  for (const word of files.words) {
    if (!word.mayWrite) continue;
    for (const token of pathTokens(word.text)) named.push(...guardFilesNamed(token).map((p) => path.resolve(word.cwd ?? workspaceRoot, p)));
  }
  const note = guardedChangeNote(workspaceRoots, named);
  if (note !== undefined) return note;
  if (files.unknownWrite === null) return undefined;
  return `${files.unknownWrite}, so Tandem cannot tell whether it changes one of the guard's own files (.tandemignore, .git/, .vscode/ …); it always asks then, even in YOLO mode.`;
}

/** The names in a folder, [] when it cannot be read. Also lent to the command policy. */
export function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return []; // no such folder: the glob matches nothing
  }
}

/** Splits on blanks and shell operators, honouring quotes and backslashes. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let current = "";
  let quote: "'" | '"' | undefined;
  let started = false;
  const flush = () => {
    if (started) words.push(current);
    current = "";
    started = false;
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === "\\" && quote === '"' && i + 1 < command.length) current += command[++i];
      else current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      started = true;
    } else if (ch === "\\" && i + 1 < command.length) {
      current += command[++i];
      started = true;
    } else if (/[\s;&|<>()`\u2028\u2029\u0085]/.test(ch)) {
      flush();
    } else {
      current += ch;
      started = true;
    }
  }
  flush();
  return words;
}

/** The path-like parts of a word: itself, an option's or assignment's value, a curl-style @file. */
function pathCandidates(word: string): string[] {
  const candidates = [word];
  const equals = word.indexOf("=");
  if (equals > 0) candidates.push(word.slice(equals + 1));
  if (word.startsWith("@")) candidates.push(word.slice(1));
  // git's `REV:path` (`git show HEAD:.env`, `git cat-file -p main:config/.env`) names a file in history.
  const colon = word.indexOf(":");
  if (colon > 0 && !word.includes("://")) candidates.push(word.slice(colon + 1));
  return candidates
    .map(expandHome)
    .filter((c) => c !== "" && !c.startsWith("-") && !/^[a-z][a-z0-9+.-]*:\/\//i.test(c));
}

/** Path-like pieces of a word that may hold code or text: `open('.env').read()` gives `.env`. */
function pathTokens(text: string): string[] {
  const pieces = text.split(/[\s'"`(),;<>|&{}[\]=@]+/).filter((t) => t !== "" && t !== "." && t !== ".." && !t.startsWith("-"));
  return pieces.filter((t) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(t)).map(expandHome);
}

/** Read when needed: ignore-controller.ts re-exports this module, so its constants are not ready at load time. */
function guardNames(): readonly string[] {
  return [...IGNORE_FILE_NAMES, ...GUARD_FOLDERS];
}

/** The guard files a token names: itself, or what its last part matches as a pattern (`-name '.t*'`). */
function guardFilesNamed(token: string): string[] {
  const segments = token.split("/");
  const name = segments.at(-1) ?? "";
  if (guardNames().includes(name) || segments.some((s) => (GUARD_FOLDERS as readonly string[]).includes(s))) return [token];
  const joined = `/${segments.filter((s) => s !== "" && s !== ".").join("/")}/`;
  if (GUARD_SUBFOLDERS.some((folder) => joined.includes(`/${folder}/`))) return [token];
  const pattern = /[*?[]/.test(name) ? globToRegExp(name) : undefined;
  // As in the shell, a pattern matches a leading dot only when it spells it.
  const matches = pattern && name.startsWith(".") ? guardNames().filter((n) => pattern.test(n)) : [];
  return matches.map((n) => path.join(path.dirname(token), n));
}

function expandHome(word: string): string {
  if (word === "~" || word.startsWith("~/")) return path.join(homedir(), word.slice(1));
  return word.replace(/^\$\{?HOME\}?(?=\/|$)/, homedir());
}

/** A glob in the last part of `absolute` becomes what it matches now; anything else stays as is. */
function expandGlob(absolute: string): string[] {
  const glob = path.basename(absolute);
  if (!/[*?[]/.test(glob)) return [absolute];
  const pattern = globToRegExp(glob);
  if (!pattern) return [absolute];
  const folder = path.dirname(absolute);
  // As in the shell, `*` and `?` do not match a leading dot.
  const hidden = glob.startsWith(".");
  return listFolder(folder)
    .filter((name) => (hidden || !name.startsWith(".")) && pattern.test(name))
    .map((name) => path.join(folder, name));
}

function resolvesToIgnored(absolute: string, controller: RootedPathGuard): boolean {
  return expandGlob(absolute).some((candidate) => controller.isIgnored(candidate));
}

/** `*`, `?` and `[…]` of one path segment, as the shell expands them; undefined if malformed. */
function globToRegExp(glob: string): RegExp | undefined {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === "*") source += "[^/]*";
    else if (ch === "?") source += "[^/]";
    else if (ch === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) source += "\\[";
      else {
        source += `[${glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else source += ch.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  try {
    return new RegExp(`^${source}$`);
  } catch {
    return undefined; // e.g. `[z-a]`: the shell would keep the word literally, and so do we
  }
}
