/**
 * What the guard cannot read. With the person watching, such a line is simply asked about; in
 * YOLO without a sandbox nobody would look, so these are refused: a command name only known at
 * run time, code in strings only known at run time, deleting paths only known at run time or
 * outside the workspace, interpreter code that deletes or builds its own code, and scripts the
 * line itself wrote. Each comes with how to write the command plainly.
 */
import { findPlan, rsyncPlan, tarRemovedFiles } from "./deny-delete";
import { generatedThenRun } from "./deny-chains";
import { isShellOrInterpreter, readsProgramFromStdin } from "./deny-download";
import { MAX_NESTING, type DenyContext } from "./deny-rules";
import { effectiveCommand, type EffectiveCommand } from "./effective-command";
import { inlineCodeBlindSpot, programText } from "./inline-code";
import { assignedCode, embeddedCode } from "./nested-script";
import { abbreviates, parseOptions } from "./options";
import { parseShell } from "./parse-shell";
import { resolveCwd, staticText } from "./resolve-words";
import type { ParsedScript, ShellArg, SimpleCommand } from "./shell-script";
import { absolutePath, isInsideAny, type DiskView } from "./workspace-paths";

export interface BlindSpot {
  readonly reason: string;
  /** How to write it so the guard can read it. */
  readonly hint: string;
}

export interface BlindContext extends DenyContext {
  /** zsh (or a shell not known) runs the line: its glob qualifiers can run code. */
  readonly zshPossible: boolean;
  readonly disk: DiskView;
}

const HINT = {
  name: "write the program's name as a plain word (`rm -r build`, not `$(…) -r build` or `$cmd -r build`)",
  code: "run the commands themselves instead of passing them as a string to eval, `sh -c` or a variable",
  target: "name the paths literally, inside the workspace (`rm -r build dist`)",
  outside: "delete only inside the workspace; ask the person to delete anything outside it",
  inline: "use `rm` with literal paths inside the workspace, or plain code without exec/eval",
  generated: "create the script with one command and run it with another, after reading it",
  pipe: "save the script in the workspace and run it as `bash script.sh`",
  expansion: "use plain `$name` expansions",
  zsh: "quote the pattern, or use `find` instead of zsh glob qualifiers",
} as const;

/** Commands that delete or overwrite the paths they are given. */
const DESTROYERS = new Set(["rm", "rmdir", "unlink", "shred", "srm", "truncate", "mv"]);
const PERMISSIONS = new Set(["chmod", "chown", "chgrp"]);
/** Variables that run what they hold as code, or whose value holds code that arithmetic would run. */
const SHELL_CODE_TEXT = /\$\(|`/;

export function findBlindSpot(script: ParsedScript, ctx: BlindContext): BlindSpot | null {
  if (script.unsupported.length > 0) return { reason: `it uses ${script.unsupported.join(", ")}`, hint: "write it as plain commands" };
  if (script.features.has("prompt-expansion")) return { reason: "`${x@P}` expands a variable as a prompt, which runs any `$( )` in it", hint: HINT.expansion };
  if (script.features.has("indirect-expansion")) return { reason: "`${!x}` reads the variable another variable names, and bash evaluates array subscripts in it", hint: HINT.expansion };
  if (script.features.has("subscript-code")) return { reason: "`a[$(…)]` as text is an array subscript bash evaluates (`test -v`, `[[ -eq ]]`, `$(( ))`), running the `$( )` in it", hint: HINT.code };
  if (ctx.zshPossible && script.features.has("extglob")) return { reason: "in zsh, `*(…)` after a pattern is a glob qualifier, which can run code", hint: HINT.zsh };
  for (const command of script.commands) {
    const spot = commandBlindSpot(command, ctx);
    if (spot !== null) return spot;
  }
  for (const pipeline of script.pipelines) {
    for (const command of pipeline.stages.slice(1).flat()) {
      const effective = effectiveCommand(command.args);
      if (effective && isShellOrInterpreter(effective.name) && readsProgramFromStdin(effective)) {
        return { reason: `a program is piped into \`${effective.name}\`, so the guard never sees it`, hint: HINT.pipe };
      }
    }
  }
  const generated = generatedThenRun(script, { home: ctx.home, startCwd: ctx.startCwd });
  if (generated) return { reason: `it runs \`${generated.file}\`, which this same line writes`, hint: HINT.generated };
  return null;
}

function commandBlindSpot(command: SimpleCommand, ctx: BlindContext): BlindSpot | null {
  const assigned = assignedCode(command);
  if (assigned.unreadable) return { reason: assigned.unreadable, hint: HINT.code };
  const stored = command.assignments.find((a) => a.value !== null && SHELL_CODE_TEXT.test(staticText(a.value) ?? ""));
  if (stored) return { reason: `\`${stored.name}\` is given shell code as text, which bash can run later (arithmetic, prompts)`, hint: HINT.code };
  if (command.args.length === 0) return null;
  const effective = effectiveCommand(command.args);
  if (effective === null) return { reason: `the command name in \`${command.text}\` is only known when it runs`, hint: HINT.name };
  const cwd = resolveCwd(ctx.startCwd, command.cd, ctx.home);
  const local = { ...ctx, startCwd: cwd };
  const embedded = embeddedCode(command, effective);
  if (embedded.unreadable) return { reason: embedded.unreadable, hint: HINT.code };
  if ((effective.name === "source" || effective.name === ".") && (!effective.args[0] || staticText(effective.args[0]) === null)) {
    return { reason: `\`${effective.name}\` runs a file whose name is only known when it runs`, hint: HINT.code };
  }
  const inline = programText(effective, command.redirections);
  const inlineSpot = inline ? inlineCodeBlindSpot(inline) : null;
  if (inlineSpot) return { reason: inlineSpot, hint: HINT.inline };
  const fed = codeFromInput(effective);
  if (fed) return { reason: fed, hint: HINT.code };
  return destructionBlindSpot(effective, local) ?? findExecBlindSpot(effective, command, local) ?? nestedBlindSpot(embedded.scripts, local);
}

/** The `-c` script of a shell, or null. */
function scriptOperand(shell: EffectiveCommand): string | null {
  const parsed = parseOptions(shell.args, { shortWithValue: "oO" });
  return parsed.letters.includes("c") && parsed.operands[0] ? staticText(parsed.operands[0]) : null;
}

/** Programs that make their input or arguments into commands: `xargs sh -c`, `parallel`. */
function codeFromInput(effective: EffectiveCommand): string | null {
  const { name, wrappers } = effective;
  if (name === "parallel") return "`parallel` runs commands it builds from its input and arguments";
  const runsCode = isShellOrInterpreter(name) || name === "eval" || name === "source" || name === ".";
  return wrappers.includes("xargs") && runsCode ? `\`xargs\` hands its input to \`${name}\` as code or arguments to code` : null;
}

/** Deleting what is only known at run time, or outside the workspace. */
function destructionBlindSpot(effective: EffectiveCommand, ctx: BlindContext): BlindSpot | null {
  const plan = destruction(effective);
  if (plan === null) return null;
  const { name } = effective;
  if (effective.wrappers.includes("xargs")) return { reason: `\`xargs ${name}\` takes what it changes from its input`, hint: HINT.target };
  const env = { home: ctx.home, cwd: ctx.startCwd };
  for (const target of plan.targets) {
    const where = absolutePath(target, env);
    if (where === null) return { reason: `\`${name}\` changes \`${target.raw}\`, a path only known when it runs`, hint: HINT.target };
    if (plan.recursive && ctx.workspaceRoot !== null && !isInsideAny(where, [ctx.workspaceRoot, ...(ctx.otherRoots ?? [])], ctx.disk)) {
      return { reason: `\`${name}\` deletes ${where} recursively, outside the workspace`, hint: HINT.outside };
    }
  }
  return null;
}

/** The paths a destructive command acts on, and whether it deletes whole folders. */
function destruction(effective: EffectiveCommand): { targets: ShellArg[]; recursive: boolean } | null {
  const { name, args } = effective;
  if (DESTROYERS.has(name)) {
    const parsed = parseOptions(args, { shortWithValue: name === "truncate" ? "sor" : name === "shred" ? "nsS" : "tS" });
    const recursive = name !== "mv" && (/[rR]/.test(parsed.letters) || parsed.long.some((n) => abbreviates(n, "recursive")));
    return { targets: parsed.operands, recursive };
  }
  if (PERMISSIONS.has(name)) {
    const parsed = parseOptions(args);
    if (!parsed.letters.includes("R") && !parsed.long.some((n) => abbreviates(n, "recursive", 3))) return null;
    return { targets: parsed.operands.slice(1), recursive: false };
  }
  if (name === "dd") {
    const output = args.find((a) => staticText(a)?.startsWith("of=") || a.raw.startsWith("of="));
    return output && staticText(output) === null ? { targets: [output], recursive: false } : null;
  }
  const find = findPlan(effective);
  if (find) return find.deletes ? { targets: find.starts, recursive: true } : null;
  const archived = tarRemovedFiles(effective);
  if (archived) return { targets: archived, recursive: true };
  const rsync = rsyncPlan(effective);
  if (rsync === null) return null;
  const targets = [...(rsync.deletesInDestination && rsync.destination ? [rsync.destination] : []), ...(rsync.removesSources ? rsync.sources : [])];
  return targets.length > 0 ? { targets, recursive: true } : null;
}

function findExecBlindSpot(effective: EffectiveCommand, command: SimpleCommand, ctx: BlindContext): BlindSpot | null {
  for (const run of findPlan(effective)?.runs ?? []) {
    // `find -exec sh -c '{}' \;` runs file names as code.
    const shell = effectiveCommand(run);
    const code = shell && isShellOrInterpreter(shell.name) ? (programText(shell, [])?.code ?? scriptOperand(shell)) : null;
    if (code?.includes("{}")) return { reason: "`find -exec` puts file names into code it runs", hint: HINT.code };
    const spot = commandBlindSpot({ ...command, args: run, redirections: [], assignments: [], nested: [] }, ctx);
    if (spot !== null) return spot;
  }
  return null;
}

function nestedBlindSpot(scripts: readonly string[], ctx: BlindContext): BlindSpot | null {
  if (ctx.depth >= MAX_NESTING) return null;
  for (const source of scripts) {
    const parsed = parseShell(source);
    if (!parsed.ok) return { reason: `a shell string cannot be parsed: ${parsed.error}`, hint: HINT.code };
    const spot = findBlindSpot(parsed.script, { ...ctx, depth: ctx.depth + 1 });
    if (spot !== null) return { ...spot, reason: `${spot.reason}, inside a shell string` };
  }
  return null;
}
