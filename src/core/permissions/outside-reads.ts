/**
 * A read-only command that reads outside the workspace (`cat /etc/passwd`, `ls ~`,
 * `cat ../../other/x`, `cd .. && ls`) needs the same switch as `read_file` of that path: "read
 * files outside the workspace". Paths are resolved against the folder each command runs in, and
 * links are followed where the caller lends a view of the disk.
 */
import { effectiveCommand } from "./effective-command";
import { readPaths } from "./read-paths";
import { resolveCwd } from "./resolve-words";
import type { ParsedScript, Pipeline, SimpleCommand } from "./shell-script";
import { absolutePath, isInsideAny, type DiskView } from "./workspace-paths";

export interface OutsideContext {
  readonly home: string;
  readonly workspaceRoot: string;
  /** The workspace's other folders (multi-root): reading there is inside too. */
  readonly otherRoots?: readonly string[];
  readonly startCwd: string | null;
  readonly disk: DiskView;
}

/** Devices that hold no one's data: reading them is never "outside the workspace". */
const HARMLESS = /^\/dev\/(null|zero|random|urandom|stdin|stdout|stderr|tty|fd\/\d+)$|^\/proc\/self\/fd\/\d+$/;
/** Commands whose output lists paths they already were judged for: `find . | xargs wc -l` stays inside. */
const PATH_PRODUCERS = new Set(["find", "git", "ls", "grep", "egrep", "fgrep", "rg", "fd"]);

/** Why the (read-only) line reads outside the workspace, or null. */
export function outsideRead(script: ParsedScript, ctx: OutsideContext): string | null {
  for (const command of script.commands) {
    const reason = commandOutside(command, script.pipelines, ctx);
    if (reason !== null) return reason;
  }
  for (const redirection of script.redirections) {
    if (redirection.op !== "<") continue;
    const where = absolutePath(redirection.target, { home: ctx.home, cwd: resolveCwd(ctx.startCwd, redirection.cd, ctx.home) });
    const reason = judge(where, redirection.target.raw, "`<`", ctx);
    if (reason !== null) return reason;
  }
  return null;
}

function commandOutside(command: SimpleCommand, pipelines: readonly Pipeline[], ctx: OutsideContext): string | null {
  if (command.args.length === 0) return null;
  const effective = effectiveCommand(command.args);
  if (effective === null) return `the command name in \`${command.text}\` is only known when it runs`;
  const cwd = resolveCwd(ctx.startCwd, command.cd, ctx.home);
  const { paths, readsCwd } = readPaths(effective);
  if (readsCwd && (cwd === null || !insideWorkspace(cwd, ctx))) {
    return `\`${effective.name}\` runs in ${cwd ?? "a folder only known when it runs"}, outside the workspace`;
  }
  for (const arg of paths) {
    const reason = judge(absolutePath(arg, { home: ctx.home, cwd }), arg.raw, `\`${effective.name}\``, ctx);
    if (reason !== null) return reason;
  }
  if (effective.wrappers.includes("xargs") && !fedByProducer(command, pipelines)) {
    return `\`xargs ${effective.name}\` reads the paths its input names, which may lie outside the workspace`;
  }
  return null;
}

function judge(where: string | null, written: string, who: string, ctx: OutsideContext): string | null {
  if (where === null) return `${who} reads \`${written}\`, a path only known when it runs`;
  if (HARMLESS.test(where) || insideWorkspace(where, ctx)) return null;
  return `${who} reads ${where}, outside the workspace`;
}

function insideWorkspace(where: string, ctx: OutsideContext): boolean {
  return isInsideAny(where, [ctx.workspaceRoot, ...(ctx.otherRoots ?? [])], ctx.disk);
}

/** True when the stage before this command is a command listing paths it was itself judged for. */
function fedByProducer(command: SimpleCommand, pipelines: readonly Pipeline[]): boolean {
  for (const { stages } of pipelines) {
    const at = stages.findIndex((stage) => stage.includes(command));
    if (at <= 0) continue;
    const previous = stages[at - 1] ?? [];
    return previous.length > 0 && previous.every((c) => PATH_PRODUCERS.has(effectiveCommand(c.args)?.name ?? ""));
  }
  return false;
}
