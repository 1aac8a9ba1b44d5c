/**
 * Decides how a chat message update goes to the webview. A streaming row grows by a few characters
 * per chunk; posting it whole each time costs the row's size per chunk (a 200 KB file streamed in
 * 16-character chunks posted 1.3 GB). So for each message still streaming this remembers what it
 * last posted of the streamed strings (`text`, `tool.content`) and a fingerprint of everything else:
 * an update that changed only those strings goes as `messageStreamed` deltas. Any other update of
 * such a message (another field changed, the final update, the answer to its question) goes as the
 * message without the streamed strings that did not change (`kept`). A message it never posted goes
 * whole. A message is forgotten once it is done (complete, and not a question still waiting for its
 * answer) or removed, so only the rows streaming or waiting now are held.
 */
import type { ChatMessage } from "../../shared/messages";
import type { StreamedField, ToWebviewMessage } from "../../shared/protocol";

interface Posted {
  readonly text: string | undefined;
  readonly content: string | undefined;
  /** JSON of every other field. */
  readonly rest: string;
}

export class StreamDeltas {
  private readonly posted = new Map<number, Posted>();

  /** The message was posted whole. */
  added(message: ChatMessage): void {
    if (stillOpen(message)) this.posted.set(message.ts, snapshot(message));
    else this.posted.delete(message.ts);
  }

  /** What to post for this update of a message: deltas when only streamed strings changed, else the message. */
  updated(message: ChatMessage): ToWebviewMessage[] {
    const before = this.posted.get(message.ts);
    const after = snapshot(message);
    if (stillOpen(message)) this.posted.set(message.ts, after);
    else this.posted.delete(message.ts);
    if (!before) return [{ type: "messageUpdated", message }];
    return (message.partial && deltas(message.ts, before, after)) || withoutKept(message, before, after);
  }

  removed(timestamps: readonly number[]): void {
    for (const ts of timestamps) this.posted.delete(ts);
  }

  /** The webview starts over (a new page, another task): it holds nothing this remembers. */
  reset(): void {
    this.posted.clear();
  }

  /** Messages remembered now (the tests check that it stays bounded). */
  get size(): number {
    return this.posted.size;
  }
}

/** Streaming, or a question whose answer will update it once more. */
function stillOpen(message: ChatMessage): boolean {
  return Boolean(message.partial) || (message.type === "ask" && message.outcome === undefined);
}

/**
 * The message without the streamed strings the webview holds: each goes as the delta from what it
 * holds (none when unchanged), then the message with those strings `kept`.
 */
function withoutKept(message: ChatMessage, before: Posted, after: Posted): ToWebviewMessage[] {
  const out: ToWebviewMessage[] = [];
  const kept: StreamedField[] = [];
  let sent: ChatMessage = message;
  const keep = (field: StreamedField, prev: string | undefined, next: string | undefined): boolean => {
    if (prev === undefined || next === undefined) return false;
    if (prev !== next) {
      const from = commonPrefixLength(prev, next);
      out.push({ type: "messageStreamed", ts: message.ts, field, from, text: next.slice(from) });
    }
    kept.push(field);
    return true;
  };
  if (keep("text", before.text, after.text)) sent = { ...sent, text: undefined };
  if (sent.tool && keep("tool.content", before.content, after.content)) sent = { ...sent, tool: { ...sent.tool, content: undefined } };
  out.push(kept.length > 0 ? { type: "messageUpdated", message: sent, kept } : { type: "messageUpdated", message });
  return out;
}

function snapshot(message: ChatMessage): Posted {
  const { text, tool, ...others } = message;
  // `content: undefined` drops the content from the JSON but keeps the tool's other fields.
  const rest = JSON.stringify(tool ? [others, { ...tool, content: undefined }] : [others]);
  return { text, content: tool?.content, rest };
}

/** Undefined when a delta cannot say it (another field changed, or a string appeared or vanished). */
function deltas(ts: number, before: Posted, after: Posted): ToWebviewMessage[] | undefined {
  if (before.rest !== after.rest) return undefined;
  const out: ToWebviewMessage[] = [];
  const fields: [StreamedField, string | undefined, string | undefined][] = [
    ["text", before.text, after.text],
    ["tool.content", before.content, after.content],
  ];
  for (const [field, prev, next] of fields) {
    if (prev === next) continue;
    if (prev === undefined || next === undefined) return undefined;
    const from = commonPrefixLength(prev, next);
    out.push({ type: "messageStreamed", ts, field, from, text: next.slice(from) });
  }
  return out;
}

/** Streaming mostly appends (the fast path); a rewritten tail (a tag the sanitizer hid) takes the exact walk. */
export function commonPrefixLength(prev: string, next: string): number {
  let n: number;
  if (next.startsWith(prev)) n = prev.length;
  else {
    const max = Math.min(prev.length, next.length);
    n = 0;
    while (n < max && prev.charCodeAt(n) === next.charCodeAt(n)) n++;
  }
  // Never split a surrogate pair between what is kept and what is sent.
  if (n > 0 && n < next.length && isHighSurrogate(next.charCodeAt(n - 1))) n--;
  return n;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
