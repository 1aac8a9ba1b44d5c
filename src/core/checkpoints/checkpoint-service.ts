/**
 * The checkpoint store as the Controller uses it (controller/checkpoints.ts): one shadow
 * repository per workspace folder under the storage folder, a store per task, opened once.
 */
import type { CheckpointService, TaskCheckpointStore } from "./types";
import { checkpointsAvailability } from "./availability";
import { CheckpointStore } from "./checkpoint-store";
import { checkpointStoreSize, cleanCheckpointStore } from "./store-size";

export function gitCheckpoints(storageRoot: string, workspaceRoot: () => string): CheckpointService {
  let availability: Promise<string | undefined> | undefined;
  return {
    unavailable: () => (availability ??= checkpointsAvailability().then((a) => (a.available ? undefined : a.reason))),
    forTask: (taskId): Promise<TaskCheckpointStore> => CheckpointStore.open({ storageRoot, workspaceRoot: workspaceRoot(), taskId }),
    size: () => checkpointStoreSize(storageRoot),
    clean: () => cleanCheckpointStore(storageRoot),
  };
}
