/**
 * The auto-approval switches as people see them: the one table the panel's menu, the CLI's
 * `--auto-approve` names, its `--help` and its start line all render from. Plain data, so the
 * webview imports it too. package.json's `tandem.autoApprove.*` entries are checked against it
 * (test/host/settings-keys.test.ts).
 */
import type { AutoApprovalSettings } from "./settings";

export type AutoApprovalKey = keyof AutoApprovalSettings;

export interface AutoApprovalSwitch {
  readonly key: AutoApprovalKey;
  /** The VS Code setting below `tandem.`: `autoApprove.<key>`. */
  readonly setting: string;
  /** The CLI's name for it: `--auto-approve <cli>`. */
  readonly cli: string;
  /** The panel's checkbox. */
  readonly label: string;
  /** The panel's summary line ("Auto-approve: Read, Edit"). */
  readonly short: string;
  /** What it lets through without asking (the CLI's --help and start line). */
  readonly description: string;
}

type Row = Omit<AutoApprovalSwitch, "key" | "setting">;

/** A Record, so a switch added to settings.ts must get its row here; the order is the menu's. */
const ROWS: Record<AutoApprovalKey, Row> = {
  readFiles: { cli: "read", label: "Read project files", short: "Read", description: "read files in the workspace (on by default)" },
  readFilesExternally: { cli: "read-outside", label: "Read files outside the workspace", short: "Read (all)", description: "read files outside the workspace" },
  editFiles: { cli: "edit", label: "Edit project files", short: "Edit", description: "create and edit files in the workspace" },
  editFilesExternally: { cli: "edit-outside", label: "Edit files outside the workspace", short: "Edit (all)", description: "edit files outside the workspace" },
  executeSafeCommands: { cli: "command-safe", label: "Run safe commands", short: "Safe commands", description: "run read-only commands on the allow-list" },
  executeAllCommands: {
    cli: "command-all",
    label: "Run all commands",
    short: "All commands",
    description: "run any command (the guard still refuses destructive ones)",
  },
  useBrowser: { cli: "browser", label: "Use the browser", short: "Browser", description: "fetch web pages (web_fetch)" },
  useMcp: { cli: "mcp", label: "Use MCP servers", short: "MCP", description: "use MCP servers" },
  runOutsideSandbox: {
    cli: "outside-sandbox",
    label: "Run commands outside the sandbox",
    short: "Outside the sandbox",
    description: "run commands the model asks to run outside the sandbox",
  },
};

export const AUTO_APPROVAL_SETTING_PREFIX = "autoApprove.";

export const AUTO_APPROVAL_SWITCHES: readonly AutoApprovalSwitch[] = (Object.keys(ROWS) as AutoApprovalKey[]).map((key) => ({
  key,
  setting: AUTO_APPROVAL_SETTING_PREFIX + key,
  ...ROWS[key],
}));

export function autoApprovalSwitch(key: AutoApprovalKey): AutoApprovalSwitch {
  return AUTO_APPROVAL_SWITCHES.find((s) => s.key === key)!;
}
