/**
 * What sandboxed commands may not read in HOME, and what they may not write in the workspace.
 * The one owner of both lists; the README and the settings view show them.
 */
import * as path from "node:path";
import { GUARD_FOLDERS } from "../ignore/guard-files";
import { IGNORE_FILE_NAMES } from "../ignore/ignore-controller";

/** Credential stores, browser profiles and editor storage, relative to HOME (Linux and macOS names). */
export const HOME_DENIED_READS = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".config/gcloud",
  ".azure",
  ".docker/config.json",
  ".netrc",
  ".git-credentials",
  ".npmrc",
  ".pypirc",
  ".kube",
  ".config/gh",
  ".password-store",
  // Browser profiles: cookies and saved passwords.
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  ".config/microsoft-edge",
  "Library/Application Support/Google/Chrome",
  "Library/Application Support/Firefox",
  "Library/Keychains",
  // VS Code's and code-server's storage: keys (SecretStorage) and task histories live there.
  ".config/Code",
  ".config/Code - Insiders",
  ".config/VSCodium",
  ".vscode-server",
  ".local/share/code-server",
  ".config/code-server",
  "Library/Application Support/Code",
  // Tandem's own storage (the CLI's default; the extension's storage comes from the host).
  ".local/share/tandem",
] as const;

/** Absolute paths of HOME's denied reads. */
export function homeDeniedReads(home: string): string[] {
  return HOME_DENIED_READS.map((entry) => path.join(home, entry));
}

/**
 * In each workspace folder, what stays read-only inside the sandbox: the guard's own files
 * (ignore files, `.vscode/`, `.tandem/`) and the parts of `.git/` that make git run programs
 * (hooks, config). The rest of `.git/` stays writable, so `git commit` works.
 */
export function workspaceReadOnlyPaths(root: string): string[] {
  const folders = GUARD_FOLDERS.filter((folder) => folder !== ".git").map((folder) => path.join(root, folder));
  return [...IGNORE_FILE_NAMES.map((name) => path.join(root, name)), ...folders, path.join(root, ".git", "hooks"), path.join(root, ".git", "config")];
}
