import type { SandboxStatus } from "../../shared/sandbox-status";
import type { AgentSettings } from "../../shared/settings";
import { guardedChangeNote } from "../ignore/guard-files";
import { guardedCommandNote, listFolder, mentionsIgnoredPath } from "../ignore/mentions-ignored-path";
import { hostListed } from "../util/local-addresses";
import { realLocation } from "../util/real-paths";
import type { ApprovalRequest, PathGuard } from "./tools/types";

export type ApprovalVerdict =
  | { readonly verdict: "auto" }
  /** `note`: why, for the person; `always`: no switch and not YOLO would let it through. */
  | { readonly verdict: "ask"; note?: string; always?: boolean }
  /** Refused without asking: the command guard blocked it. */
  | { readonly verdict: "deny"; reason: string };

/**
 * Whether a tool may run without asking. YOLO approves everything except what the command guard
 * denies, a fetch of this machine's or its network's addresses whose host the person did not list,
 * commands naming ignored or secret files, and file tools' changes to the guard's own files (`guard-files.ts`, judged on the real paths); otherwise each category has its own
 * switch, and a path outside the workspace needs the matching "externally" switch.
 */
export async function decideApproval(
  request: ApprovalRequest,
  settings: AgentSettings,
  workspace: CommandWorkspace,
): Promise<ApprovalVerdict> {
  // The person's list of hosts (the sandbox's allowed domains: one list for commands and web_fetch) opens a local one.
  if (request.localHost && !hostListed(new URL(request.localHost.url), settings.sandbox.allowedDomains)) return { verdict: "ask", note: request.localHost.note, always: true };
  if (request.category === "command") return decideCommand(request, settings, workspace);
  // A file tool's change to the guard's own files is the person's call, before YOLO and the switches.
  const guarded = request.category === "edit" ? guardedChangeNote(workspace.roots, request.paths ?? []) : undefined;
  if (guarded) return { verdict: "ask", note: guarded, always: true };
  if (settings.yolo) return { verdict: "auto" };
  const auto = settings.autoApproval;
  const outside = request.message.outsideWorkspace === true;
  const allowed = {
    none: true,
    read: auto.readFiles && (!outside || auto.readFilesExternally),
    edit: auto.editFiles && (!outside || auto.editFilesExternally),
    browser: auto.useBrowser,
    mcp: auto.useMcp || request.allowedByConfig === true,
  }[request.category];
  return allowed ? { verdict: "auto" } : { verdict: "ask" };
}

/** Where a tool runs: the workspace's folders (the primary first: commands start there), its ignore rules, and the OS sandbox's state (none: no sandbox offered). */
export interface CommandWorkspace {
  readonly roots: readonly string[];
  readonly ignore: PathGuard;
  readonly sandbox?: SandboxStatus;
}

/**
 * Tandem reads the command line itself (Cline trusts the model's requires_approval): the
 * model's flag can only make a command stricter. Without the OS sandbox, YOLO with the guard on
 * refuses what the guard cannot read; inside it the sandbox confines what the guard cannot read,
 * and the guard still refuses what it can. A command that names an ignored or secret file always
 * asks, even in YOLO (the sandbox cannot hide its copies in git's history); one that writes the
 * guard's own files asks unless confined (inside they are read-only); running one outside the
 * sandbox asks unless the person allowed that.
 */
async function decideCommand(request: ApprovalRequest, settings: AgentSettings, workspace: CommandWorkspace): Promise<ApprovalVerdict> {
  // The shell parser is large: it loads with the first command, not with the extension.
  const { applyModelRequest, evaluateCommand } = await import("../permissions");
  const command = request.command ?? "";
  const auto = settings.autoApproval;
  const sandbox = workspace.sandbox;
  if (sandbox?.refusesCommands) {
    return {
      verdict: "deny",
      reason: `tandem.sandbox.mode is "on" but the sandbox is not available on this machine, so no command runs. ${sandbox.reason ?? ""} To run commands without it, set tandem.sandbox.mode (the CLI's --sandbox) to "auto" or "off".`.replace(/\s+/g, " ").trim(),
    };
  }
  const confined = sandbox?.active === true && request.outsideSandbox !== true;
  const { primary, otherRoots } = foldersOf(workspace);
  const policy = evaluateCommand(command, {
    workspaceRoot: primary,
    otherRoots,
    denyGuard: settings.commandDenyGuard,
    ...(settings.commandAllowList.length > 0 ? { allowList: settings.commandAllowList } : {}),
    // "Run all commands" runs every "ask" as YOLO does: nobody reviews them either.
    yolo: settings.yolo || auto.executeAllCommands,
    sandboxed: confined,
    readOutsideWorkspace: auto.readFilesExternally,
    ...(request.shell ? { shell: request.shell.path, interactiveShell: request.shell.interactive } : {}),
    disk: { realPath: realLocation, list: listFolder },
  });
  const decision = applyModelRequest(policy, request.requiresApproval === true);
  if (decision.decision === "deny") return { verdict: "deny", reason: decision.reason };
  // Confined, the guard's own files are read-only: the sandbox holds what this ask guards.
  const guarded = confined ? undefined : guardedCommandNote(decision.files, workspace.roots);
  if (guarded) return { verdict: "ask", note: guarded, always: true };
  // Asked even confined: the sandbox hides the file, not its old versions in git (`git show HEAD:.env`).
  const ignored = mentionsIgnoredPath(command, { root: primary, isIgnored: (path) => workspace.ignore.isIgnored(path) }, decision.files);
  if (ignored) return { verdict: "ask", note: `It names ${ignored}, which is ignored or looks like a secret file.`, always: true };
  if (sandbox?.active && request.outsideSandbox && !auto.runOutsideSandbox) {
    return { verdict: "ask", note: "It asks to run outside the sandbox, with your full access to files and the network.", always: true };
  }
  if (settings.yolo) return { verdict: "auto" };
  if (auto.executeAllCommands) return { verdict: "auto" };
  if (decision.decision === "allow" && auto.executeSafeCommands) return { verdict: "auto" };
  // Say why when the person could not tell: safe commands are on, or the line hides characters.
  const explain = decision.rule === "hidden-text" || (decision.rule === "outside-workspace" && auto.executeSafeCommands);
  return explain ? { verdict: "ask", note: `Asked because ${decision.reason}.` } : { verdict: "ask" };
}

/** Commands start in the primary folder; the others are inside the workspace too. */
function foldersOf(workspace: CommandWorkspace): { primary: string; otherRoots: readonly string[] } {
  const [primary, ...otherRoots] = workspace.roots;
  if (primary === undefined) throw new Error("A command needs a workspace folder to run in.");
  return { primary, otherRoots };
}
