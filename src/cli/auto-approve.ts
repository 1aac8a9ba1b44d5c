/**
 * `--auto-approve`: reading the CLI's names of the auto-approval switches (the table in
 * `src/shared/auto-approval.ts`), and what to tell someone whose run was refused something.
 */
import type { AutoApprovalSettings } from "../shared/settings";
import { DEFAULT_AUTO_APPROVAL } from "../shared/settings";
import { AUTO_APPROVAL_SWITCHES, autoApprovalSwitch, type AutoApprovalKey } from "../shared/auto-approval";
import type { AskMessage } from "../shared/messages";
import { getTool } from "../core/task/tools/registry";

const cli = (key: AutoApprovalKey) => autoApprovalSwitch(key).cli;
/** The switches' names and descriptions as a column (--help, the start line). */
export function switchLines(indent: string, switches = AUTO_APPROVAL_SWITCHES): string[] {
  return switches.map((s) => `${indent}${s.cli.padEnd(13)} ${s.description}`);
}

/** `["edit,command-safe", "read-outside"]` → the switches turned on; throws on a name it does not know. */
export function parseAutoApprove(values: readonly string[]): Partial<AutoApprovalSettings> {
  const on: Partial<AutoApprovalSettings> = {};
  for (const name of values.flatMap((v) => v.split(",")).map((n) => n.trim()).filter(Boolean)) {
    const found = AUTO_APPROVAL_SWITCHES.find((s) => s.cli === name);
    if (!found) throw new Error(`Unknown --auto-approve switch "${name}": use ${AUTO_APPROVAL_SWITCHES.map((s) => s.cli).join(", ")}.`);
    on[found.key] = true;
  }
  return on;
}

/** Said once at the start of an unattended run without --yolo. */
export function unattendedNote(on: Partial<AutoApprovalSettings>): string {
  const settings = { ...DEFAULT_AUTO_APPROVAL, ...on };
  const allowed = AUTO_APPROVAL_SWITCHES.filter((s) => settings[s.key]).map((s) => s.cli);
  const more = switchLines("  ", AUTO_APPROVAL_SWITCHES.filter((s) => !settings[s.key]));
  return [
    "tandem: no terminal to ask and no --yolo: whatever needs approval is refused and stops the task (exit code 3).",
    `Approved without asking: ${allowed.join(", ") || "nothing"}. To allow more, add --auto-approve with any of:`,
    ...more,
    "or --yolo for everything.",
  ].join("\n");
}

/** What would have let a refused question through: the switch to add, or why even YOLO asks. */
export function refusalHint(message: AskMessage, yolo: boolean): string {
  // The guard's own files and ignored or secret ones: no switch helps (the question says why).
  if (message.tool?.alwaysAsks) return `${message.tool.why ?? ""} Tandem always asks about this, even with --yolo; run it at a terminal to answer.`.trim();
  if (yolo) return "Tandem asks about this even with --yolo; run it at a terminal to answer.";
  if (message.ask === "command") return `Allow it with --auto-approve ${cli("executeSafeCommands")} (read-only commands) or ${cli("executeAllCommands")}, or --yolo.`;
  const outside = message.tool?.outsideWorkspace === true;
  const category = message.tool ? getTool(message.tool.tool)?.approval : undefined;
  const key: AutoApprovalKey =
    category === "read" ? (outside ? "readFilesExternally" : "readFiles") : category === "browser" ? "useBrowser" : category === "mcp" ? "useMcp" : outside ? "editFilesExternally" : "editFiles";
  return `Allow it with --auto-approve ${cli(key)}, or --yolo.`;
}
