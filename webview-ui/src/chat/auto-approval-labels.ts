import type { AutoApprovalSettings } from "../../../src/shared/settings";

/** Every switch with its label; a Record, so a new switch in settings.ts must get a label here. */
export const AUTO_APPROVAL_LABELS: Record<keyof AutoApprovalSettings, { label: string; short: string }> = {
  readFiles: { label: "Read project files", short: "Read" },
  readFilesExternally: { label: "Read files outside the workspace", short: "Read (all)" },
  editFiles: { label: "Edit project files", short: "Edit" },
  editFilesExternally: { label: "Edit files outside the workspace", short: "Edit (all)" },
  executeSafeCommands: { label: "Run safe commands", short: "Safe commands" },
  executeAllCommands: { label: "Run all commands", short: "All commands" },
  useBrowser: { label: "Use the browser", short: "Browser" },
  useMcp: { label: "Use MCP servers", short: "MCP" },
};

export const AUTO_APPROVAL_KEYS = Object.keys(AUTO_APPROVAL_LABELS) as (keyof AutoApprovalSettings)[];

export const YOLO_WARNING =
  "YOLO approves every file edit and every command without asking you, inside the workspace and outside it, " +
  "including commands that delete files or reach the network. The command guard refuses the destructive commands it can " +
  "read and, with no sandbox, any command it cannot read; scripts and programs a command starts are not checked. " +
  "Changes to .tandemignore, .git/, .vscode/ and .tandem/ still ask. Turn it on only where a mistake costs nothing.";
