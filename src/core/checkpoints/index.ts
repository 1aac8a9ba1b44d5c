/** Checkpoints: the workspace recorded after each round in a shadow git repository (README.md). */
export { checkpointsAvailability, MINIMUM_GIT_VERSION, type CheckpointsAvailability, type GitOptions } from "./availability";
export { CheckpointError } from "./checkpoint-error";
export { CheckpointStore, DEFAULT_MAX_FILE_BYTES, type CheckpointChange, type CheckpointStoreOptions, type RestoreResult } from "./checkpoint-store";
export { BUILD_OUTPUTS, CACHES, DEPENDENCY_FOLDERS } from "./exclusions";
export { checkpointStoreSize, cleanCheckpointStore } from "./store-size";
