/**
 * A task's searchable digest: what the person wrote and what the model answered in words, one line
 * per message, each cut to a length and the whole bounded, so History can search every task's
 * conversation from memory without reading its chat. Tool output, file contents and reasoning are
 * left out: they would swamp the words a person remembers a task by. Each line starts with a mark
 * saying who wrote it; the marks are control characters, which a query never holds, so a match
 * never runs across two lines.
 */
import type { ChatMessage } from "../../shared/messages";

export const PERSON_MARK = "\u0001";
export const MODEL_MARK = "\u0002";

/**
 * The bounds: a task's first few thousand characters of each side say what it was about, and 5,000
 * tasks at most 8 KB each (twice, with the folded copy) stay a few tens of MB in memory.
 */
export const DIGEST_LIMITS = { person: 2_000, model: 2_000, personMessage: 600, modelMessage: 300 } as const;

/** Who wrote a message the digest keeps; undefined for one it leaves out (tools, requests, reasoning, a message still streaming). */
function authorOf(message: ChatMessage): "person" | "model" | undefined {
  if (message.partial) return undefined;
  if (message.type === "say") {
    if (message.say === "task" || message.say === "user_feedback") return "person";
    if (message.say === "text" || message.say === "completion_result") return "model";
    return undefined;
  }
  return message.ask === "followup" || message.ask === "plan_mode_respond" ? "model" : undefined;
}

/** The digest of a chat, in the order the messages came, until each side's bound is reached. */
export function taskDigest(chat: readonly ChatMessage[]): string {
  const lines: string[] = [];
  const left = { person: DIGEST_LIMITS.person, model: DIGEST_LIMITS.model };
  for (const message of chat) {
    const by = authorOf(message);
    if (!by || left[by] <= 0) continue;
    const text = oneLine(message.text ?? "");
    if (!text) continue;
    const cut = text.slice(0, Math.min(left[by], by === "person" ? DIGEST_LIMITS.personMessage : DIGEST_LIMITS.modelMessage));
    left[by] -= cut.length;
    lines.push((by === "person" ? PERSON_MARK : MODEL_MARK) + cut);
  }
  return lines.join("\n");
}

/** Whitespace (newlines included) as single spaces, control characters out: one line, and no mark inside it. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is taken out
  return text.replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, "").replace(/\s+/g, " ").trim();
}
