/**
 * What an argument becomes when the shell runs it, as far as it can be known beforehand:
 * `~`, `$HOME` and `$PWD` are known; other variables and substitutions are not.
 */
import * as path from "node:path";
import type { CdStep, ShellArg } from "./shell-script";

export interface PathEnv {
  readonly home: string;
  /** The folder the command runs in, or null when it cannot be known. */
  readonly cwd: string | null;
}

/** The argument's text when it has no expansions at all (quotes removed, `~` left as written). */
export function staticText(arg: ShellArg): string | null {
  let out = "";
  for (const part of arg.parts) {
    if (part.kind !== "text") return null;
    out += part.value;
  }
  return out;
}

/**
 * The argument after tilde and parameter expansion. "known" gives null when any part is unknown;
 * "unset-empty" also expands unknown plain `$VARS` to nothing, as an unset variable would.
 */
export function expandArg(arg: ShellArg, env: PathEnv, mode: "known" | "unset-empty"): string | null {
  let out = "";
  for (const [index, part] of arg.parts.entries()) {
    if (part.kind === "dynamic") return null;
    if (part.kind === "text") {
      const value = index === 0 && !part.quoted ? expandTilde(part.value, env) : part.value;
      if (value === null) return null;
      out += value;
      continue;
    }
    const value = knownParam(part.name, env);
    if (!part.plain || value === null) return null;
    if (value !== undefined) out += value;
    else if (mode === "known") return null;
  }
  return out;
}

function knownParam(name: string, env: PathEnv): string | null | undefined {
  if (name === "HOME") return env.home;
  if (name === "PWD") return env.cwd;
  return undefined;
}

function expandTilde(value: string, env: PathEnv): string | null {
  if (!value.startsWith("~")) return value;
  const slash = value.indexOf("/");
  const prefix = slash === -1 ? value : value.slice(0, slash);
  const rest = slash === -1 ? "" : value.slice(slash);
  if (prefix === "~") return env.home + rest;
  if (prefix === "~+") return env.cwd === null ? null : env.cwd + rest;
  // `~user`, `~-`: someone else's home or the previous folder; not knowable here.
  return null;
}

/** The folder a command runs in after the `cd` steps before it. */
export function resolveCwd(start: string | null, steps: readonly CdStep[], home: string): string | null {
  let cwd = start;
  for (const step of steps) {
    if (step.kind === "home") cwd = home;
    else if (step.kind === "unknown") cwd = null;
    else cwd = changeDir(cwd, expandArg(step.target, { home, cwd }, "known"));
  }
  return cwd;
}

function changeDir(cwd: string | null, target: string | null): string | null {
  if (target === null) return null;
  if (target === "") return cwd;
  if (target.startsWith("/")) return path.posix.normalize(target);
  return cwd === null ? null : path.posix.join(cwd, target);
}
