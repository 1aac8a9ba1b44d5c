/**
 * What sandboxed commands may not read in HOME, and what they may not write in the workspace.
 * The one owner of both lists; the README and the settings view show them.
 */
import { existsSync, statSync } from "node:fs";
import * as path from "node:path";
import { GUARD_FOLDERS, GUARD_SUBFOLDERS } from "../ignore/guard-files";
import { IGNORE_FILE_NAMES } from "../ignore/ignore-file-names";
import { DEFAULT_DATA_FOLDER_IN_HOME } from "../storage/paths";
import { GIT_OBEYED_FILES } from "./git-control-files";

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
  if (isFolder(path.join(root, ".git"))) paths.push(path.join(root, ".git", "hooks"), path.join(root, ".git", "config"), ...existingObeyed(path.join(root, ".git")));
  // Hook, workflow and skill folders, where their parent is a folder (a missing one is made empty
  // inside, as above; a `.clinerules` file of rules is left as it is). Hooks made where there is
  // none still need the person's trust, which is for their exact content.
  for (const folder of GUARD_SUBFOLDERS) {
    const full = path.join(root, folder);
    if (!isFolder(path.dirname(full))) continue;
    paths.push(full);
    if (!existsSync(full)) paths.push(path.join(full, "README.md"));
  }
  return paths;
}

/**
 * How the names of environment variables that hold credentials end: `API_KEY` itself or after a
 * `_` (`OPENAI_API_KEY`), in any case (`github_token`). The launcher removes them before the
 * sandbox starts, so a command cannot print or send them (Tandem's own API keys among them).
 */
export const CREDENTIAL_NAME_ENDINGS = [
  "API_KEY",
  "APIKEY",
  "TOKEN",
  "SECRET",
  "SECRET_KEY",
  "SECRET_ACCESS_KEY",
  "ACCESS_KEY_ID",
  "PASSWORD",
  "PASSWD",
  "CREDENTIALS",
  "PRIVATE_KEY",
] as const;

/** Whole names, in any case, of credential variables that end otherwise. */
export const CREDENTIAL_NAMES = ["DOCKER_AUTH_CONFIG"] as const;

/** Whether an environment variable's name is a credential's, by the same rule as the launcher's patterns. */
export function isCredentialName(name: string): boolean {
  const upper = name.toUpperCase();
  return CREDENTIAL_NAMES.some((whole) => upper === whole) || CREDENTIAL_NAME_ENDINGS.some((ending) => upper === ending || upper.endsWith(`_${ending}`));
}

/** The credential names as shell `case` patterns: each letter a bracket of both cases (sh has no case-blind match). */
export function credentialCasePatterns(): string[] {
  const anyCase = (text: string) => text.replace(/[A-Za-z]/g, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);
  return [...CREDENTIAL_NAME_ENDINGS.flatMap((ending) => [anyCase(ending), `*_${anyCase(ending)}`]), ...CREDENTIAL_NAMES.map(anyCase)];
}

/** The other files of a git folder that git obeys, where they exist (git-control-files.ts puts back what a command made of the rest). */
export function existingObeyed(gitDir: string): string[] {
  return GIT_OBEYED_FILES.map((file) => path.join(gitDir, file)).filter((file) => existsSync(file));
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
