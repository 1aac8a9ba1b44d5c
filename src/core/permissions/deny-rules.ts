/**
 * The built-in deny list: commands no setting, not even YOLO, runs without the person switching
 * the guard off. One match anywhere in a compound command denies the whole line.
 */
import { deviceCommandDenial, redirectionDenial } from "./deny-devices";
import { recursiveDeleteDenial, recursivePermissionDenial } from "./deny-delete";
import { pipelineDenial, substitutedDownloadDenial } from "./deny-download";
import { commandName, effectiveCommand } from "./effective-command";
import { embeddedScripts } from "./nested-script";
import { parseShell } from "./parse-shell";
import { resolveCwd } from "./resolve-words";
import type { ParsedScript, SimpleCommand } from "./shell-script";

export interface DenyContext {
  readonly home: string;
  readonly workspaceRoot: string | null;
  /** Where the line starts running: the workspace root, or the folder of an outer `bash -c`. */
  readonly startCwd: string | null;
  /** How deep inside `bash -c '…'` strings this line sits. */
  readonly depth: number;
}

/** Strings inside strings inside strings are rare; past this depth they are left to "ask". */
const MAX_NESTING = 3;

/** Why the line must not run, or null. */
export function findDenial(script: ParsedScript, ctx: DenyContext): string | null {
  for (const command of script.commands) {
    const reason = forkBombDenial(command) ?? commandDenial(command, ctx);
    if (reason !== null) return withCommand(reason, command.text);
  }
  for (const pipeline of script.pipelines) {
    const reason = pipelineDenial(pipeline);
    if (reason !== null) return reason;
  }
  for (const redirection of script.redirections) {
    const env = { home: ctx.home, cwd: resolveCwd(ctx.startCwd, redirection.cd, ctx.home) };
    const reason = redirectionDenial(redirection, env);
    if (reason !== null) return withCommand(reason, redirection.text);
  }
  return null;
}

/** A function that starts copies of itself through a pipe or `&`: `:(){ :|:& };:` by any name. */
function forkBombDenial(command: SimpleCommand): string | null {
  const name = commandName(command.args[0]);
  if (name === null || !command.functions.includes(name) || !(command.piped || command.background)) return null;
  return `a fork bomb: function \`${name}\` keeps starting copies of itself`;
}

function commandDenial(command: SimpleCommand, ctx: DenyContext): string | null {
  const effective = effectiveCommand(command.args);
  if (effective === null) return null;
  const cwd = resolveCwd(ctx.startCwd, command.cd, ctx.home);
  const places = { home: ctx.home, workspaceRoot: ctx.workspaceRoot, cwd };
  return (
    recursiveDeleteDenial(effective, places) ??
    recursivePermissionDenial(effective, places) ??
    deviceCommandDenial(effective, { home: ctx.home, cwd }) ??
    substitutedDownloadDenial(command, effective) ??
    nestedDenial(embeddedScripts(command, effective), { ...ctx, startCwd: cwd })
  );
}

function nestedDenial(scripts: string[], ctx: DenyContext): string | null {
  if (ctx.depth >= MAX_NESTING) return null;
  for (const source of scripts) {
    const parsed = parseShell(source);
    const reason = parsed.ok ? findDenial(parsed.script, { ...ctx, depth: ctx.depth + 1 }) : null;
    if (reason !== null) return `${reason} inside a shell string`;
  }
  return null;
}

function withCommand(reason: string, text: string): string {
  const shown = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return `${reason} (\`${shown}\`)`;
}
