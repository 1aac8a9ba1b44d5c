import type { ApiStreamToolCallsChunk } from "../../api/types";
import type { CutOff } from "../assistant-message/types";
import type { ToolCall } from "./tool-call";

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
   * The calls in index order, as tool blocks for the executor, plus the raw input objects for the
   * assistant message. Arguments that are not a JSON object become a call with an
   * `__invalid_arguments` param, which the executor reports to the model as a mistake; arguments
   * that stop in the middle of a JSON value (the answer `ended` there) mark the call cut off.
   */
  finish(ended: CutOff["reason"]): { call: ToolCall; input: Record<string, unknown> }[] {
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
        const cutOff: CutOff | undefined = !input && isUnfinishedJson(text) ? { reason: ended, incompleteArguments: true } : undefined;
        return {
          call: { type: "tool_use", name: pending.name, params, partial: false, id: pending.id, ...(input ? { input } : {}), ...(cutOff ? { cutOff } : {}) },
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

/**
 * Whether `text` is the start of a JSON value that stops before its end: every character so far
 * fits the grammar, but a string, array or object is still open. Scans once, O(length).
 */
export function isUnfinishedJson(text: string): boolean {
  const open: string[] = [];
  let inString = false;
  let escaped = false;
  let started = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      started = true;
    } else if (ch === "{" || ch === "[") {
      open.push(ch === "{" ? "}" : "]");
      started = true;
    } else if (ch === "}" || ch === "]") {
      if (open.pop() !== ch) return false;
      if (open.length === 0) return false; // a whole value closed: anything wrong is not a cut
    } else if (!/[\s,:\w.+-]/.test(ch)) {
      return false;
    }
  }
  return started && (inString || open.length > 0);
}
