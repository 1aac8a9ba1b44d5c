import type { ApiStreamToolCallsChunk } from "../../api/types";
import type { ToolCall } from "./tool-executor";

interface PendingCall {
  id: string;
  name: string;
  pieces: string[];
}

/**
 * Assembles native tool-call fragments (merged by index) into complete calls. Argument text is
 * collected in pieces and joined once, so assembly stays linear in what arrives.
 */
export class NativeToolCallAccumulator {
  private readonly calls = new Map<number, PendingCall>();

  add(chunk: ApiStreamToolCallsChunk): void {
    let call = this.calls.get(chunk.index);
    if (!call) {
      call = { id: chunk.id ?? `call_${chunk.index}`, name: chunk.name ?? "", pieces: [] };
      this.calls.set(chunk.index, call);
    }
    if (chunk.id) call.id = chunk.id;
    if (chunk.name) call.name = chunk.name;
    if (chunk.argumentsDelta) call.pieces.push(chunk.argumentsDelta);
  }

  get size(): number {
    return this.calls.size;
  }

  /**
   * The complete calls in index order, as tool blocks for the executor, plus the raw input
   * objects for the assistant message. Arguments that are not a JSON object become a call with
   * an `__invalid_arguments` param, which the executor reports to the model as a mistake.
   */
  finish(): { call: ToolCall; input: Record<string, unknown> }[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, pending]) => {
        const text = pending.pieces.join("");
        const input = parseArguments(text);
        const params: Record<string, string> = {};
        if (input) {
          for (const [key, value] of Object.entries(input)) {
            params[key] = typeof value === "string" ? value : JSON.stringify(value);
          }
        } else {
          params.__invalid_arguments = text;
        }
        return {
          call: { type: "tool_use", name: pending.name, params, partial: false, id: pending.id },
          input: input ?? {},
        };
      });
  }

  reset(): void {
    this.calls.clear();
  }
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
