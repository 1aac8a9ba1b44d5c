import type { ApiMessage, ApiStreamReasoningChunk, ContentBlock, StopReason } from "../../api/types";
import type { AssistantMessageContent, CutOff } from "../assistant-message/types";
import { NativeToolCallAccumulator } from "./native-tool-calls";
import type { ToolCall } from "./tool-call";

/**
 * Collects one streamed answer (text, reasoning with its signature, native tool calls) and turns
 * it into the assistant message for the conversation history.
 */
export class AnswerAssembler {
  text = "";
  /** A note appended to the text when the answer was cut short (rejection, cancel, lost connection). */
  note = "";
  readonly nativeCalls = new NativeToolCallAccumulator();
  /** The provider's stop reason, once it arrived. */
  stopReason: StopReason | undefined;
  private readonly reasoningPieces: string[] = [];
  private reasoningCache: string | undefined = "";
  private signature: string | undefined;
  private readonly redacted: string[] = [];
  private toolUses: ContentBlock[] = [];

  /** How long the reasoning text is, without joining it. */
  reasoningLength = 0;

  addReasoning(chunk: ApiStreamReasoningChunk): void {
    if (chunk.reasoning) {
      this.reasoningLength += chunk.reasoning.length;
      this.reasoningPieces.push(chunk.reasoning);
      this.reasoningCache = undefined;
    }
    if (chunk.signature) this.signature = chunk.signature;
    if (chunk.redactedData) this.redacted.push(chunk.redactedData);
  }

  /** The reasoning so far (joined once per change, not per read). */
  get reasoningText(): string {
    this.reasoningCache ??= this.reasoningPieces.join("");
    return this.reasoningCache;
  }

  /** How the answer ended, for a tool call it ended inside; `interrupted` when the stream broke. */
  endReason(interrupted: boolean): CutOff["reason"] {
    if (interrupted) return "interrupted";
    return this.stopReason === "max_tokens" ? "max_tokens" : "ended";
  }

  /** Completes the native tool calls and remembers them for the history. */
  finishNativeCalls(ended: CutOff["reason"]): ToolCall[] {
    const finished = this.nativeCalls.finish(ended);
    this.toolUses = finished.map(({ call, input }) => ({ type: "tool_use", id: call.id ?? "", name: call.name, input }));
    return finished.map(({ call }) => call);
  }

  /** No prose and no tool call: the model said nothing usable. */
  isEmpty(blocks: readonly AssistantMessageContent[]): boolean {
    const hasTool = blocks.some((b) => b.type === "tool_use");
    return !hasTool && this.text.trim() === "";
  }

  toApiMessage(): ApiMessage {
    return { role: "assistant", content: [...this.thinkingBlocks(), ...this.textBlocks(), ...this.toolUses] };
  }

  /**
   * The answer as far as it got before a cancel. Native tool calls are left out: they never got
   * their results, and a tool_use without a tool_result would make the history invalid.
   */
  toInterruptedApiMessage(): ApiMessage {
    const content = [...this.thinkingBlocks(), ...this.textBlocks()];
    if (content.length === 0) content.push({ type: "text", text: this.note.trim() || "(no answer)" });
    return { role: "assistant", content };
  }

  private textBlocks(): ContentBlock[] {
    const text = [this.text.trimEnd(), this.note].filter(Boolean).join("\n\n");
    return text ? [{ type: "text", text }] : [];
  }

  private thinkingBlocks(): ContentBlock[] {
    const blocks: ContentBlock[] = [];
    // Anthropic accepts thinking back only with its signature.
    if (this.signature) blocks.push({ type: "thinking", thinking: this.reasoningText, signature: this.signature });
    for (const data of this.redacted) blocks.push({ type: "redacted_thinking", data });
    return blocks;
  }
}
