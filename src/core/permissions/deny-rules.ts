/**
 * The built-in deny list: commands no setting, not even YOLO, runs without the person switching
 * the guard off. One match anywhere in a compound command denies the whole line.
 */
import { downloadThenRunDenial } from "./deny-chains";
import { deviceCommandDenial, redirectionDenial } from "./deny-devices";
import { findDeleteDenial, findPlan, moveDenial, recursiveDeleteDenial, recursivePermissionDenial, rsyncDenial, tarDenial } from "./deny-delete";
import { pipelineDenial, substitutedDownloadDenial } from "./deny-download";
import { commandName, effectiveCommand, type EffectiveCommand } from "./effective-command";
import { inlineCodeDenial, inlineDeleteTargets, programText, type InlineCode } from "./inline-code";
import { protectedTarget, type ProtectedPlaces } from "./protected-paths";
import { assignedCode, embeddedScripts } from "./nested-script";
import { parseShell } from "./parse-shell";
import { resolveCwd } from "./resolve-words";
import type { ParsedScript, SimpleCommand } from "./shell-script";

export interface DenyContext {
  readonly home: string;
  readonly workspaceRoot: string | null;
  /** The workspace's other folders (multi-root): inside the workspace, and protected like its root. */
  readonly otherRoots?: readonly string[];
  /** Where the line starts running: the workspace root, or the folder of an outer `bash -c`. */
  readonly startCwd: string | null;
  /** How deep inside `bash -c '…'` strings this line sits. */
  readonly depth: number;
}

/** Which deny rule matched: stable names, for counting and for tests. */
export type DenyRule = "recursive-delete" | "permission-change" | "disk-write" | "fork-bomb" | "download-exec";

export interface Denial {
  readonly rule: DenyRule;
  readonly reason: string;
}

/** Strings inside strings inside strings are rare; past this depth they are left to "ask". */
export const MAX_NESTING = 3;

/** Why the line must not run, or null. */
export function findDenial(script: ParsedScript, ctx: DenyContext): Denial | null {
  for (const command of script.commands) {
    const denial = forkBombDenial(command) ?? commandDenial(command, ctx);
    if (denial !== null) return { ...denial, reason: withCommand(denial.reason, command.text) };
  }
  const loop = script.forkLoops[0];
  if (loop !== undefined) return { rule: "fork-bomb", reason: withCommand("a fork bomb: an endless loop keeps starting background processes", loop) };
  for (const pipeline of script.pipelines) {
    const reason = pipelineDenial(pipeline);
    if (reason !== null) return { rule: "download-exec", reason };
  }
  const chain = downloadThenRunDenial(script, { home: ctx.home, startCwd: ctx.startCwd });
  if (chain !== null) return { rule: "download-exec", reason: chain };
  for (const redirection of script.redirections) {
    const env = { home: ctx.home, cwd: resolveCwd(ctx.startCwd, redirection.cd, ctx.home) };
    const reason = redirectionDenial(redirection, env);
    if (reason !== null) return { rule: "disk-write", reason: withCommand(reason, redirection.text) };
  }
  return null;
}

/** A function that starts copies of itself through a pipe or `&`: `:(){ :|:& };:` by any name. */
function forkBombDenial(command: SimpleCommand): Denial | null {
  const name = commandName(command.args[0]);
  if (name === null || !command.functions.includes(name) || !(command.piped || command.background)) return null;
  return { rule: "fork-bomb", reason: `a fork bomb: function \`${name}\` keeps starting copies of itself` };
}

function commandDenial(command: SimpleCommand, ctx: DenyContext): Denial | null {
  const effective = effectiveCommand(command.args);
  const cwd = resolveCwd(ctx.startCwd, command.cd, ctx.home);
  const nestedCtx = { ...ctx, startCwd: cwd };
  if (effective === null) return nestedDenial(assignedCode(command).scripts, nestedCtx);
  const places = { home: ctx.home, workspaceRoot: ctx.workspaceRoot, otherRoots: ctx.otherRoots ?? [], cwd };
  const rule = (r: DenyRule, reason: string | null): Denial | null => (reason === null ? null : { rule: r, reason });
  const inline = programText(effective, command.redirections);
  return (
    findExecDenial(effective, command, nestedCtx) ??
    rule("recursive-delete", recursiveDeleteDenial(effective, places) ?? findDeleteDenial(effective, places) ?? rsyncDenial(effective, places) ?? moveDenial(effective, places) ?? tarDenial(effective, places)) ??
    rule("permission-change", recursivePermissionDenial(effective, places)) ??
    rule("disk-write", deviceCommandDenial(effective, { home: ctx.home, cwd })) ??
    rule("download-exec", substitutedDownloadDenial(command, effective)) ??
    (inline ? inlineDenial(inline, places) : null) ??
    nestedDenial(embeddedScripts(command, effective), nestedCtx)
  );
}

function inlineDenial(inline: InlineCode, places: ProtectedPlaces): Denial | null {
  const reason = inlineCodeDenial(inline);
  if (reason !== null) return { rule: reason.startsWith("a fork bomb") ? "fork-bomb" : "download-exec", reason };
  // `shutil.rmtree('/')`: a literal path, judged as `rm -r` would be.
  const hit = inlineDeleteTargets(inline).map((target) => protectedTarget(target.replace(/^~(?=\/|$)/, places.home), places)).find((h) => h !== null);
  return hit ? { rule: "recursive-delete", reason: `\`${inline.interpreter}\` code deletes ${hit} recursively` } : null;
}

/** `find … -exec CMD {} \;` runs CMD: judged like any command (`{}` is one unknown file). */
function findExecDenial(effective: EffectiveCommand, command: SimpleCommand, ctx: DenyContext): Denial | null {
  for (const run of findPlan(effective)?.runs ?? []) {
    const denial = commandDenial({ ...command, args: run, redirections: [], assignments: [], nested: [] }, ctx);
    if (denial !== null) return denial;
  }
  return null;
}

function nestedDenial(scripts: string[], ctx: DenyContext): Denial | null {
  if (ctx.depth >= MAX_NESTING) return null;
  for (const source of scripts) {
    const parsed = parseShell(source);
    const denial = parsed.ok ? findDenial(parsed.script, { ...ctx, depth: ctx.depth + 1 }) : null;
    if (denial !== null) return { ...denial, reason: `${denial.reason} inside a shell string` };
  }
  return null;
}

export function withCommand(reason: string, text: string): string {
  const shown = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return `${reason} (\`${shown}\`)`;
}
