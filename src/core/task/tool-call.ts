import type { ImageBlock, TextBlock } from "../../api/types";
import type { ToolUse } from "../assistant-message/types";
import { formatResponse } from "../prompts/responses";
import { imageBlockFromDataUrl } from "../util/image-block";
import { errorText } from "../util/error-text";
import type { ParamValues } from "./tools/params";
import type { ApprovalDecision, ApprovalRequest, Feedback, PreparedCall, ToolContext, ToolDefinition, ToolResult } from "./tools/types";

/** A complete or partial tool call; native calls carry the provider's id and their arguments as sent (`input`). */
export type ToolCall = ToolUse & { id?: string; input?: Record<string, unknown> };

/** Decides a request: the policy, and the person when it asks them. */
export type Approver = (request: ApprovalRequest) => Promise<ApprovalDecision>;

/**
 * The steps of one call with its parameters read: prepare, approval, run, and the person's note
 * on the result. A rejection is answered here, once, for every tool; so is the note typed with
 * "Approve". Errors (a ToolError is the model's mistake) propagate to the caller.
 */
export async function runToolCall(tool: ToolDefinition, params: ParamValues<ToolDefinition["params"]>, ctx: ToolContext, approve: Approver): Promise<ToolResult> {
  const prepared = await tool.prepare(params, ctx);
  const decision = await decide(tool, prepared, ctx, approve);
  if (!decision.approved) return { kind: "rejected", feedback: decision.feedback };
  return withNote(await prepared.run(), decision.feedback);
}

async function decide(tool: ToolDefinition, prepared: PreparedCall, ctx: ToolContext, approve: Approver): Promise<ApprovalDecision> {
  if (!prepared.approval) {
    if (tool.approval === "none") return { approved: true };
    throw new Error(`${tool.name} did not say what to approve, though its category is "${tool.approval}".`);
  }
  let decision: ApprovalDecision;
  try {
    decision = await approve({ category: tool.approval, ...prepared.approval });
    ctx.signal.throwIfAborted();
  } catch (error) {
    await discardAfter(prepared, error);
    throw error;
  }
  if (!decision.approved) await prepared.discard?.();
  return decision;
}

/** Takes back what preparing showed after a failure; if that fails too, both are reported. */
async function discardAfter(prepared: PreparedCall, cause: unknown): Promise<void> {
  try {
    await prepared.discard?.();
  } catch (discardError) {
    throw new AggregateError([cause, discardError], `${errorText(cause)} Taking back the proposal afterwards failed too: ${errorText(discardError)}`);
  }
}

/** The note the person typed (and the images they attached) with "Approve", after the tool's own result. */
function withNote(result: ToolResult, note: Feedback | undefined): ToolResult {
  if (result.kind !== "ok" || !(note?.text || note?.images?.length)) return result;
  const said = note.text ? formatResponse.approvedWithNote(note.text) : undefined;
  if (typeof result.content === "string") {
    return { ...result, content: formatResponse.toolResult(said ? `${result.content}\n\n${said}` : result.content, note.images) };
  }
  const blocks: (TextBlock | ImageBlock)[] = [...result.content];
  if (said) blocks.push({ type: "text", text: said });
  for (const image of note.images ?? []) blocks.push(imageBlockFromDataUrl(image));
  return { ...result, content: blocks };
}
