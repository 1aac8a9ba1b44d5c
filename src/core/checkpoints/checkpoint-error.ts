/** A checkpoint operation that failed, naming the operation and the workspace it was for. */
export class CheckpointError extends Error {
  override readonly name = "CheckpointError";

  constructor(
    readonly operation: string,
    readonly workspaceRoot: string,
    detail: string,
  ) {
    super(`Could not ${operation} for ${workspaceRoot}: ${detail}`);
  }
}
