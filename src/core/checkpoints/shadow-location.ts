/**
 * Where a workspace's shadow repository lives: `<storageRoot>/checkpoints/<key>/`, the key made
 * of the folder's name and a hash of its real path (stable across sessions and windows, distinct
 * for two folders of the same name). Never inside the workspace.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";

export interface ShadowLocation {
  /** The workspace folder (its real path): the shadow's work tree. */
  readonly workTree: string;
  /** `<storageRoot>/checkpoints/<key>`: everything of this workspace's store. */
  readonly folder: string;
  /** The shadow repository's git dir. */
  readonly gitDir: string;
  /** The shadow's index; each operation works on a copy and renames it back (checkpoint-store.ts). */
  readonly indexFile: string;
  /** The lock that serialises operations on this shadow repository across processes. */
  readonly lockFile: string;
  /** A note of which workspace this is, for people looking into the storage folder. */
  readonly workspaceNote: string;
}

export function checkpointsFolder(storageRoot: string): string {
  return path.join(path.resolve(storageRoot), "checkpoints");
}

export function shadowLocation(storageRoot: string, realWorkspace: string): ShadowLocation {
  const hash = createHash("sha256").update(realWorkspace).digest("hex").slice(0, 16);
  const name = path.basename(realWorkspace).replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 40) || "root";
  const folder = path.join(checkpointsFolder(storageRoot), `${name}-${hash}`);
  const gitDir = path.join(folder, "git");
  return {
    workTree: realWorkspace,
    folder,
    gitDir,
    indexFile: path.join(gitDir, "index"),
    lockFile: path.join(folder, "lock"),
    workspaceNote: path.join(folder, "workspace.txt"),
  };
}
