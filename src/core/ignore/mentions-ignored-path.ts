/**
 * Finds a word in a shell command that names an ignored path, so the executor can insist on
 * asking before such a command runs (auto-approval must not let `cat .env` through). This is
 * a heuristic over the command's words, not a shell: it errs towards finding a path.
 */
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import type { PathGuard } from "../task/tools/types";

export interface RootedPathGuard extends PathGuard {
  /** Relative words in the command resolve against this folder. */
  readonly root: string;
}

/** The first word of `command` that resolves to an ignored path, as written; undefined if none. */
export function mentionsIgnoredPath(command: string, controller: RootedPathGuard): string | undefined {
  for (const word of shellWords(command)) {
    for (const candidate of pathCandidates(word)) {
      if (resolvesToIgnored(candidate, controller)) return word;
    }
  }
  return undefined;
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
    } else if (/[\s;&|<>()`]/.test(ch)) {
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
  return candidates
    .map(expandHome)
    .filter((c) => c !== "" && !c.startsWith("-") && !/^[a-z][a-z0-9+.-]*:\/\//i.test(c));
}

function expandHome(word: string): string {
  if (word === "~" || word.startsWith("~/")) return path.join(homedir(), word.slice(1));
  return word.replace(/^\$\{?HOME\}?(?=\/|$)/, homedir());
}

function resolvesToIgnored(candidate: string, controller: RootedPathGuard): boolean {
  const absolute = path.resolve(controller.root, candidate);
  if (!/[*?[]/.test(path.basename(candidate))) return controller.isIgnored(absolute);
  // A glob in the last part: check what it matches in that folder now.
  const folder = path.dirname(absolute);
  const glob = path.basename(absolute);
  const pattern = globToRegExp(glob);
  if (!pattern) return controller.isIgnored(absolute);
  // As in the shell, `*` and `?` do not match a leading dot.
  const hidden = glob.startsWith(".");
  return listFolder(folder).some(
    (name) => (hidden || !name.startsWith(".")) && pattern.test(name) && controller.isIgnored(path.join(folder, name)),
  );
}

function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return []; // no such folder: the glob matches nothing
  }
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
