/**
 * Where Cline keeps its MCP servers: `cline_mcp_settings.json` under `settings/` in the global
 * storage of its extension, `saoudrizwan.claude-dev`. In the same editor that folder is a sibling
 * of Tandem's own global storage (…/User/globalStorage/tandem.tandem); a person who used Cline in
 * desktop VS Code (or Insiders) and runs Tandem elsewhere finds it in that editor's user folder.
 * No `vscode` import: tested in plain Node.
 */
import * as path from "node:path";

export const CLINE_EXTENSION_ID = "saoudrizwan.claude-dev";
const FILE = ["settings", "cline_mcp_settings.json"] as const;

export interface ClineLookup {
  /** Tandem's `context.globalStorageUri.fsPath`. */
  readonly globalStorage: string;
  readonly platform: NodeJS.Platform;
  readonly home: string;
  /** %APPDATA% on Windows. */
  readonly appData?: string;
  /** $XDG_CONFIG_HOME on Linux. */
  readonly xdgConfigHome?: string;
}

/** The files to look for, in order, without duplicates. */
export function clineSettingsCandidates(l: ClineLookup): string[] {
  const pathOf = l.platform === "win32" ? path.win32 : path.posix;
  const inStorage = (globalStorage: string) => pathOf.join(globalStorage, CLINE_EXTENSION_ID, ...FILE);
  const userFolders = desktopUserFolders(l, pathOf);
  const files = [
    inStorage(pathOf.dirname(l.globalStorage)),
    ...userFolders.map((user) => inStorage(pathOf.join(user, "globalStorage"))),
  ];
  return [...new Set(files)];
}

function desktopUserFolders(l: ClineLookup, p: typeof path.posix): string[] {
  const products = ["Code", "Code - Insiders"];
  let base: string;
  if (l.platform === "darwin") base = p.join(l.home, "Library", "Application Support");
  else if (l.platform === "win32") base = l.appData ?? p.join(l.home, "AppData", "Roaming");
  else base = l.xdgConfigHome || p.join(l.home, ".config");
  return products.map((product) => p.join(base, product, "User"));
}
