/**
 * `--auto-approve`: the CLI's names for the auto-approval switches of `src/shared/settings.ts`,
 * and what to tell someone whose run was refused something.
 */
import type { AutoApprovalSettings } from "../shared/settings";
import { DEFAULT_AUTO_APPROVAL } from "../shared/settings";
import type { AskMessage } from "../shared/messages";
import { getTool } from "../core/task/tools/registry";

interface Switch {
  readonly name: string;
  readonly key: keyof AutoApprovalSettings;
  readonly allows: string;
}

/** A Record, so a switch added to the settings must get a CLI name here. */
const NAMES: Record<keyof AutoApprovalSettings, Omit<Switch, "key">> = {
  readFiles: { name: "read", allows: "read files in the workspace (on by default)" },
  readFilesExternally: { name: "read-outside", allows: "read files outside the workspace" },
  editFiles: { name: "edit", allows: "create and edit files in the workspace" },
  editFilesExternally: { name: "edit-outside", allows: "edit files outside the workspace" },
  executeSafeCommands: { name: "command-safe", allows: "run read-only commands on the allow-list" },
  executeAllCommands: { name: "command-all", allows: "run any command (the guard still refuses destructive ones)" },
  useBrowser: { name: "browser", allows: "fetch web pages (web_fetch)" },
  useMcp: { name: "mcp", allows: "use MCP servers" },
  runOutsideSandbox: { name: "outside-sandbox", allows: "run commands the model asks to run outside the sandbox" },
};

export const AUTO_APPROVE_SWITCHES: readonly Switch[] = (Object.keys(NAMES) as (keyof AutoApprovalSettings)[]).map((key) => ({ key, ...NAMES[key] }));

/** `["edit,command-safe", "read-outside"]` → the switches turned on; throws on a name it does not know. */
export function parseAutoApprove(values: readonly string[]): Partial<AutoApprovalSettings> {
  const on: Partial<AutoApprovalSettings> = {};
  for (const name of values.flatMap((v) => v.split(",")).map((n) => n.trim()).filter(Boolean)) {
    const found = AUTO_APPROVE_SWITCHES.find((s) => s.name === name);
    if (!found) throw new Error(`Unknown --auto-approve switch "${name}": use ${AUTO_APPROVE_SWITCHES.map((s) => s.name).join(", ")}.`);
    on[found.key] = true;
  }
  return on;
}

/** Said once at the start of an unattended run without --yolo. */
export function unattendedNote(on: Partial<AutoApprovalSettings>): string {
  const settings = { ...DEFAULT_AUTO_APPROVAL, ...on };
  const allowed = AUTO_APPROVE_SWITCHES.filter((s) => settings[s.key]).map((s) => s.name);
  const more = AUTO_APPROVE_SWITCHES.filter((s) => !settings[s.key]).map((s) => `  ${s.name.padEnd(13)} ${s.allows}`);
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
  if (message.ask === "command") return "Allow it with --auto-approve command-safe (read-only commands) or command-all, or --yolo.";
  const outside = message.tool?.outsideWorkspace === true;
  const category = message.tool ? getTool(message.tool.tool)?.approval : undefined;
  const name = category === "read" ? (outside ? "read-outside" : "read") : category === "browser" || category === "mcp" ? category : outside ? "edit-outside" : "edit";
  return `Allow it with --auto-approve ${name}, or --yolo.`;
}
