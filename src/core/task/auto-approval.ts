import type { AgentSettings } from "../../shared/settings";
import { guardedChangeNote } from "../ignore/guard-files";
import { guardedCommandNote, listFolder, mentionsIgnoredPath } from "../ignore/mentions-ignored-path";
import { realLocation } from "./tools/paths";
import type { ApprovalRequest, PathGuard } from "./tools/types";

export type ApprovalVerdict =
  | { readonly verdict: "auto" }
  /** `note`: why, for the person; `always`: no switch and not YOLO would let it through. */
  | { readonly verdict: "ask"; note?: string; always?: boolean }
  /** Refused without asking: the command guard blocked it. */
  | { readonly verdict: "deny"; reason: string };

/**
 * Whether a tool may run without asking. YOLO approves everything except what the command guard
 * denies, commands naming ignored or secret files, and file tools' changes to the guard's own
 * files (`guard-files.ts`, judged on the real paths); otherwise each category has its own
 * switch, and a path outside the workspace needs the matching "externally" switch.
 */
export async function decideApproval(
  request: ApprovalRequest,
  settings: AgentSettings,
  workspace: { cwd: string; ignore: PathGuard },
): Promise<ApprovalVerdict> {
  if (request.category === "command") return decideCommand(request, settings, workspace);
  // A file tool's change to the guard's own files is the person's call, before YOLO and the switches.
  const guarded = request.category === "edit" ? guardedChangeNote(workspace.cwd, request.paths ?? []) : undefined;
  if (guarded) return { verdict: "ask", note: guarded, always: true };
  if (settings.yolo) return { verdict: "auto" };
  const auto = settings.autoApproval;
  const outside = request.message.outsideWorkspace === true;
  const allowed = {
    none: true,
    read: auto.readFiles && (!outside || auto.readFilesExternally),
    edit: auto.editFiles && (!outside || auto.editFilesExternally),
    browser: auto.useBrowser,
    mcp: auto.useMcp,
  }[request.category];
  return allowed ? { verdict: "auto" } : { verdict: "ask" };
}

/**
 * Tandem reads the command line itself (Cline trusts the model's requires_approval): the
 * model's flag can only make a command stricter. Commands never run in a sandbox yet, so YOLO
 * with the guard on refuses what the guard cannot read. A command that writes the guard's own
 * files, or names an ignored or secret one, always asks, even in YOLO.
 */
async function decideCommand(request: ApprovalRequest, settings: AgentSettings, workspace: { cwd: string; ignore: PathGuard }): Promise<ApprovalVerdict> {
  // The shell parser is large: it loads with the first command, not with the extension.
  const { applyModelRequest, evaluateCommand } = await import("../permissions");
  const command = request.command ?? "";
  const auto = settings.autoApproval;
  const policy = evaluateCommand(command, {
    workspaceRoot: workspace.cwd,
    denyGuard: settings.commandDenyGuard,
    ...(settings.commandAllowList.length > 0 ? { allowList: settings.commandAllowList } : {}),
    // "Run all commands" runs every "ask" as YOLO does: nobody reviews them either.
    yolo: settings.yolo || auto.executeAllCommands,
    sandboxed: false,
    readOutsideWorkspace: auto.readFilesExternally,
    ...(request.shell ? { shell: request.shell.path, interactiveShell: request.shell.interactive } : {}),
    disk: { realPath: realLocation, list: listFolder },
  });
  const decision = applyModelRequest(policy, request.requiresApproval === true);
  if (decision.decision === "deny") return { verdict: "deny", reason: decision.reason };
  const guarded = guardedCommandNote(decision.files, workspace.cwd);
  if (guarded) return { verdict: "ask", note: guarded, always: true };
  const ignored = mentionsIgnoredPath(command, { root: workspace.cwd, isIgnored: (path) => workspace.ignore.isIgnored(path) }, decision.files);
  if (ignored) return { verdict: "ask", note: `It names ${ignored}, which is ignored or looks like a secret file.`, always: true };
  if (settings.yolo) return { verdict: "auto" };
  if (auto.executeAllCommands) return { verdict: "auto" };
  if (decision.decision === "allow" && auto.executeSafeCommands) return { verdict: "auto" };
  // Say why when the person could not tell: safe commands are on, or the line hides characters.
  const explain = decision.rule === "hidden-text" || (decision.rule === "outside-workspace" && auto.executeSafeCommands);
  return explain ? { verdict: "ask", note: `Asked because ${decision.reason}.` } : { verdict: "ask" };
}
