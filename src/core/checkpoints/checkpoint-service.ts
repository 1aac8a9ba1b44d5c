/**
 * The checkpoint store as the Controller uses it (controller/checkpoints.ts): one shadow
 * repository per workspace folder under the storage folder; a task's store covers every folder
 * open when it is asked for (roots-store.ts), each folder's opened once.
 */
import type { WorkspaceRoot } from "../../host/bridge";
import type { CheckpointService, TaskCheckpointStore } from "./types";
import { checkpointsAvailability } from "./availability";
import { CheckpointStore } from "./checkpoint-store";
import { RootsCheckpointStore } from "./roots-store";
import { checkpointStoreSize, cleanCheckpointStore } from "./store-size";

export function gitCheckpoints(storageRoot: string, workspaceRoots: () => readonly WorkspaceRoot[]): CheckpointService {
  let availability: Promise<string | undefined> | undefined;
  return {
    unavailable: () => (availability ??= checkpointsAvailability().then((a) => (a.available ? undefined : a.reason))),
    forTask: (taskId): Promise<TaskCheckpointStore> => RootsCheckpointStore.open(workspaceRoots(), (folder) => CheckpointStore.open({ storageRoot, workspaceRoot: folder, taskId })),
    size: () => checkpointStoreSize(storageRoot),
    clean: () => cleanCheckpointStore(storageRoot),
  };
}
