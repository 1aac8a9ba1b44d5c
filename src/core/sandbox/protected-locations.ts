/**
 * What sandboxed commands may not read in HOME, and what they may not write in the workspace.
 * The one owner of both lists; the README and the settings view show them.
 */
import { existsSync, statSync } from "node:fs";
import * as path from "node:path";
import { GUARD_FOLDERS } from "../ignore/guard-files";
import { IGNORE_FILE_NAMES } from "../ignore/ignore-file-names";
import { DEFAULT_DATA_FOLDER_IN_HOME } from "../storage/paths";

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
  DEFAULT_DATA_FOLDER_IN_HOME,
] as const;

/** Absolute paths of HOME's denied reads. */
export function homeDeniedReads(home: string): string[] {
  return HOME_DENIED_READS.map((entry) => path.join(home, entry));
}

/**
 * In each workspace folder, what stays read-only inside the sandbox: the guard's own files
 * (ignore files, `.vscode/`, `.tandem/`) and the parts of `.git/` that make git run programs
 * (hooks, config). The rest of `.git/` stays writable, so `git commit` works.
 *
 * The sandbox stands a placeholder in for a protected path that does not exist, and a file
 * placeholder breaks `git add -A`. So a missing ignore file is left out (a new one can only hide
 * more), and a missing guard folder is named with a child, which makes its placeholder an empty
 * folder (git skips those) that nothing can be created in.
 */
export function workspaceReadOnlyPaths(root: string): string[] {
  const paths = IGNORE_FILE_NAMES.map((name) => path.join(root, name)).filter((file) => existsSync(file));
  for (const folder of GUARD_FOLDERS.filter((name) => name !== ".git")) {
    const full = path.join(root, folder);
    paths.push(full);
    if (!existsSync(full)) paths.push(path.join(full, "settings.json"));
  }
  if (isFolder(path.join(root, ".git"))) paths.push(path.join(root, ".git", "hooks"), path.join(root, ".git", "config"));
  return paths;
}

/**
 * Environment variables that hold credentials, as shell `case` patterns: the launcher removes
 * them before the sandbox starts, so a command cannot print or send them (Tandem's own API keys
 * among them).
 */
export const CREDENTIAL_ENV_PATTERNS = [
  "*_API_KEY",
  "*_APIKEY",
  "*_TOKEN",
  "*_SECRET",
  "*_SECRET_KEY",
  "*_SECRET_ACCESS_KEY",
  "*_ACCESS_KEY_ID",
  "*_PASSWORD",
  "*_PASSWD",
  "*_CREDENTIALS",
  "*_PRIVATE_KEY",
  "*_AUTH_TOKEN",
  "AWS_SESSION_TOKEN",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "DOCKER_AUTH_CONFIG",
] as const;

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
