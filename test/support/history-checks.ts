/**
 * Invariants every conversation history must keep, whatever happened in the task: roles
 * alternate starting with the person, every native tool_use is answered by a tool_result in the
 * very next message (and every tool_result answers one), and no message is stored twice.
 */
import type { ApiMessage, ContentBlock } from "../../src/api/types";

export function historyProblems(history: readonly ApiMessage[]): string[] {
  const problems: string[] = [];
  history.forEach((message, i) => {
    const expected = i % 2 === 0 ? "user" : "assistant";
    if (message.role !== expected) problems.push(`message ${i} is ${message.role}, expected ${expected}`);
    if (blocks(message).length === 0) problems.push(`message ${i} is empty`);
    const previous = history[i - 1];
    if (previous && JSON.stringify(previous) === JSON.stringify(message)) problems.push(`message ${i} repeats message ${i - 1}`);
  });
  history.forEach((message, i) => {
    if (message.role !== "assistant") return;
    const uses = blocks(message).filter((b) => b.type === "tool_use").map((b) => (b as { id: string }).id);
    const next = history[i + 1];
    const results = next ? blocks(next).filter((b) => b.type === "tool_result").map((b) => (b as { toolUseId: string }).toolUseId) : [];
    for (const id of uses) {
      // The last assistant message may still be waiting for its results only if the task ended there.
      if (next && !results.includes(id)) problems.push(`tool_use ${id} in message ${i} has no tool_result in message ${i + 1}`);
      if (!next) problems.push(`tool_use ${id} in the last message ${i} has no tool_result`);
    }
    for (const id of results) if (!uses.includes(id)) problems.push(`tool_result ${id} in message ${i + 1} answers no tool_use`);
  });
  return problems;
}

function blocks(message: ApiMessage): ContentBlock[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}
