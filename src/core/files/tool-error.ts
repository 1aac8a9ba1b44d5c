/** The typed error of the file readers and the tools: the model's mistake, told to it as the tool's error. */

/**
 * A mistake the model made (missing parameter, file not found, no match). It goes back to the
 * model as a tool error and counts toward the mistake limit.
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  constructor(
    readonly reason: "missing_param" | "invalid_param" | "not_found" | "not_allowed" | "failed",
    message: string,
  ) {
    super(message);
  }
}
