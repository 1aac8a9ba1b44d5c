/**
 * What a workspace's shadow repository is made of, in its folder `<storageRoot>/checkpoints/<key>/`
 * (named by storage/paths.ts: the key is made of the folder's name and a hash of its real path,
 * stable across sessions and windows, distinct for two folders of the same name). Never inside
 * the workspace.
 */
import * as path from "node:path";
import { checkpointShadowFolder } from "../storage/paths";

const LOCK_NAME = "lock";

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

/** The lock of the shadow repository in `folder`; cleaning the store takes it too (store-size.ts). */
export function shadowLockFile(folder: string): string {
  return path.join(folder, LOCK_NAME);
}

export function shadowLocation(storageRoot: string, realWorkspace: string): ShadowLocation {
  const folder = checkpointShadowFolder(storageRoot, realWorkspace);
  const gitDir = path.join(folder, "git");
  return {
    workTree: realWorkspace,
    folder,
    gitDir,
    indexFile: path.join(gitDir, "index"),
    lockFile: shadowLockFile(folder),
    workspaceNote: path.join(folder, "workspace.txt"),
  };
}
