/**
 * Every place Tandem keeps something on disk, named once (as Continue's `core/util/paths.ts`):
 * the CLI's data folder rule, the key that gives each workspace its own folder, and each location
 * under a storage root. Everyone else asks here; a folder renamed here is renamed everywhere, so
 * the names below are what existing users have on disk: change one only with a move of their data.
 *
 * Two roots, which VS Code makes one:
 * - a **global root** holds what applies to every workspace (rules, hooks, workflows, the MCP
 *   settings): VS Code's global storage folder, or the CLI's data folder;
 * - a **storage root** holds saved tasks and checkpoints: VS Code's global storage folder again,
 *   or, in the CLI, the workspace's own folder under the data folder (or `--storage DIR`).
 */
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import * as path from "node:path";

/** The CLI's data folder relative to HOME when XDG_DATA_HOME is not set. */
export const DEFAULT_DATA_FOLDER_IN_HOME = ".local/share/tandem";

/** The CLI's data folder, global rather than per workspace: `$XDG_DATA_HOME/tandem`, else `~/.local/share/tandem`. */
export function tandemDataFolder(env: NodeJS.ProcessEnv): string {
  // An empty XDG_DATA_HOME counts as unset, as the XDG spec says.
  if (env.XDG_DATA_HOME) return path.join(env.XDG_DATA_HOME, "tandem");
  return path.join(env.HOME || homedir(), DEFAULT_DATA_FOLDER_IN_HOME);
}

/**
 * A workspace's folder name under `workspaces/`: its name (so a person finds theirs) and a hash of
 * its path (so two folders of the same name stay apart).
 */
export function workspaceKey(workspace: string): string {
  const hash = createHash("sha256").update(workspace).digest("hex").slice(0, 12);
  const name = path.basename(workspace).replace(/[^\w.-]+/g, "_") || "root";
  return `${name}-${hash}`;
}

/** The CLI's storage root for a workspace: `<data folder>/workspaces/<workspace key>`. */
export function workspaceStorageRoot(dataFolder: string, workspace: string): string {
  return path.join(workspacesFolder(dataFolder), workspaceKey(workspace));
}

/** Where the CLI keeps each workspace's storage root (`--list-tasks --all-workspaces` reads them all). */
export function workspacesFolder(dataFolder: string): string {
  return path.join(dataFolder, "workspaces");
}

// Under a global root.

/** Every .md/.txt file in it is a rule for every workspace. */
export function globalRulesFolder(globalRoot: string): string {
  return path.join(globalRoot, "rules");
}

/** An executable named after a hook point (PreToolUse, …) runs in every workspace. */
export function globalHooksFolder(globalRoot: string): string {
  return path.join(globalRoot, "hooks");
}

/** Every .md file in it is a slash command (`/name`) in every workspace. */
export function globalWorkflowsFolder(globalRoot: string): string {
  return path.join(globalRoot, "workflows");
}

/** Every folder in it holding a SKILL.md is a skill in every workspace. */
export function globalSkillsFolder(globalRoot: string): string {
  return path.join(globalRoot, "skills");
}

/** The person's MCP servers (Cline's file name, so its format is recognised). */
export function globalMcpSettingsFile(globalRoot: string): string {
  return path.join(globalRoot, "tandem_mcp_settings.json");
}

/** The extension's V8 code cache of the core bundle, one file per build (host/vscode/core-bundle.ts). */
export function codeCacheFolder(globalRoot: string): string {
  return path.join(globalRoot, "code-cache");
}

// Under a storage root.

/** The index of saved tasks (rebuilt from `tasks/` when it is lost). */
export function taskHistoryFile(storageRoot: string): string {
  return path.join(storageRoot, "task_history.json");
}

/** Every saved task's folder is in it. */
export function tasksFolder(storageRoot: string): string {
  return path.join(storageRoot, "tasks");
}

/** One saved task's folder: its chat, its API history, its mode, its History entry and digest. */
export function taskFolder(storageRoot: string, taskId: string): string {
  return path.join(tasksFolder(storageRoot), taskId);
}

/**
 * A task's own copy of its History entry (all but its totals, which its chat owns), from which
 * the index is rebuilt when it is lost.
 */
export function taskHistoryEntryFile(storageRoot: string, taskId: string): string {
  return path.join(taskFolder(storageRoot, taskId), "history_item.json");
}

/** A task's searchable digest: a bounded text of the person's messages and the model's (core/history/task-digest.ts). */
export function taskDigestFile(storageRoot: string, taskId: string): string {
  return path.join(taskFolder(storageRoot, taskId), "search_digest.txt");
}

/** Every workspace's shadow repository (absolute, whatever the root was given as). */
export function checkpointsFolder(storageRoot: string): string {
  return path.join(path.resolve(storageRoot), "checkpoints");
}

/**
 * One workspace's shadow repository: `checkpoints/<name>-<hash>`, from the folder's real path.
 * Not `workspaceKey`: this key came first with its own spelling (longer hash, name cut at 40),
 * and existing stores are found by it.
 */
export function checkpointShadowFolder(storageRoot: string, realWorkspace: string): string {
  const hash = createHash("sha256").update(realWorkspace).digest("hex").slice(0, 16);
  const name = path.basename(realWorkspace).replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 40) || "root";
  return path.join(checkpointsFolder(storageRoot), `${name}-${hash}`);
}

// In a workspace folder.

/** The workspace's own MCP servers, which start only once the person trusts the workspace. */
export function workspaceMcpFile(workspaceFolder: string): string {
  return path.join(workspaceFolder, ".tandem", "mcp.json");
}
