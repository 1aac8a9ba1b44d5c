/**
 * Turns what a server returns (tool results, resource contents) into what the model can take:
 * text, images, embedded text resources, resource links; audio and binary blobs become a line
 * saying what was left out. Text is bounded in total (head and tail kept, the middle replaced by
 * a marker) so one 10 MB answer cannot fill the context window; images are bounded too.
 */
import type { McpContent, McpResourceResult, McpToolResult } from "./types";

export interface ResultLimits {
  /** Characters of text kept in all, head and tail together. */
  readonly maxTextChars: number;
  /** Base64 characters of images kept in all; later images become a note. */
  readonly maxImageChars: number;
}

export const DEFAULT_RESULT_LIMITS: ResultLimits = { maxTextChars: 100_000, maxImageChars: 8 * 1024 * 1024 };

type Raw = Record<string, unknown>;

export function normaliseToolResult(raw: Raw, limits: ResultLimits = DEFAULT_RESULT_LIMITS): McpToolResult {
  // Servers on the 2024-10-07 protocol answer `toolResult` instead of `content`.
  const items = Array.isArray(raw.content) ? (raw.content as Raw[]) : raw.toolResult !== undefined ? [{ type: "text", text: stringify(raw.toolResult) }] : [];
  const content = boundImages(items.map(toContent), limits.maxImageChars);
  let structured = isRecord(raw.structuredContent) ? raw.structuredContent : undefined;
  let structuredContentOmitted = false;
  const structuredChars = structured ? JSON.stringify(structured).length : 0;
  const textChars = content.reduce((n, c) => n + textOf(c).length, 0);
  if (structured && structuredChars + Math.min(textChars, limits.maxTextChars) > limits.maxTextChars) {
    // The spec asks servers to repeat structured output as text; when there is none, keep a bounded copy.
    if (textChars === 0) content.push({ type: "text", text: JSON.stringify(structured) });
    structured = undefined;
    structuredContentOmitted = true;
  }
  const budget = limits.maxTextChars - (structured ? structuredChars : 0);
  const { items: bounded, omitted } = boundText(content, budget);
  return {
    isError: raw.isError === true,
    content: bounded,
    ...(structured ? { structuredContent: structured } : {}),
    ...(structuredContentOmitted ? { structuredContentOmitted } : {}),
    omittedChars: omitted,
    ...(omitted > 0 ? { fullText: wholeText(content) } : {}),
  };
}

export function normaliseResourceResult(raw: Raw, limits: ResultLimits = DEFAULT_RESULT_LIMITS): McpResourceResult {
  const items = Array.isArray(raw.contents) ? (raw.contents as Raw[]) : [];
  const content = boundImages(items.map((item) => fromResourceContents(item)), limits.maxImageChars);
  const { items: bounded, omitted } = boundText(content, limits.maxTextChars);
  return { contents: bounded, omittedChars: omitted, ...(omitted > 0 ? { fullText: wholeText(content) } : {}) };
}

/** Every text part before the cut, one after another, as the person reads the whole result. */
function wholeText(items: readonly McpContent[]): string {
  return items.map(textOf).filter((text) => text.length > 0).join("\n\n");
}

function toContent(item: Raw): McpContent {
  switch (item.type) {
    case "text":
      return { type: "text", text: stringify(item.text) };
    case "image":
      return { type: "image", data: stringify(item.data), mimeType: stringify(item.mimeType ?? "image/png") };
    case "audio":
      return note(`[audio (${stringify(item.mimeType)}, ${base64Bytes(item.data)} bytes) not shown: the model cannot take audio]`);
    case "resource":
      return fromResourceContents(isRecord(item.resource) ? item.resource : {});
    case "resource_link":
      return {
        type: "resource_link",
        uri: stringify(item.uri),
        name: stringify(item.name ?? item.uri),
        ...(typeof item.description === "string" ? { description: item.description } : {}),
        ...(typeof item.mimeType === "string" ? { mimeType: item.mimeType } : {}),
      };
    default:
      return note(`[content of type ${JSON.stringify(item.type)} not shown]`);
  }
}

function fromResourceContents(r: Raw): McpContent {
  const uri = stringify(r.uri);
  const mimeType = typeof r.mimeType === "string" ? r.mimeType : undefined;
  if (typeof r.text === "string") return { type: "resource", uri, ...(mimeType ? { mimeType } : {}), text: r.text };
  if (typeof r.blob === "string" && mimeType?.startsWith("image/")) return { type: "image", data: r.blob, mimeType };
  return { type: "resource", uri, ...(mimeType ? { mimeType } : {}), text: `[binary content (${mimeType ?? "unknown type"}, ${base64Bytes(r.blob)} bytes) not shown]` };
}

function boundImages(items: McpContent[], maxChars: number): McpContent[] {
  let used = 0;
  return items.map((item) => {
    if (item.type !== "image") return item;
    used += item.data.length;
    if (used <= maxChars) return item;
    return note(`[image (${item.mimeType}, ${base64Bytes(item.data)} bytes) left out: the result's images exceed ${Math.round(maxChars / 1048576)} MB]`);
  });
}

/** Keeps the first and last `budget / 2` characters of all text, in order, across items. */
function boundText(items: McpContent[], budget: number): { items: McpContent[]; omitted: number } {
  const total = items.reduce((n, c) => n + textOf(c).length, 0);
  if (total <= budget) return { items, omitted: 0 };
  const keep = Math.max(0, budget);
  const headEnd = Math.ceil(keep / 2);
  const tailStart = total - Math.floor(keep / 2);
  const omitted = tailStart - headEnd;
  const marker = `\n[… ${omitted} characters omitted: the result exceeds ${keep} characters …]\n`;
  const out: McpContent[] = [];
  let offset = 0;
  let markerPlaced = false;
  for (const item of items) {
    const text = textOf(item);
    const start = offset;
    offset += text.length;
    if (text.length === 0) {
      out.push(item);
      continue;
    }
    const head = text.slice(0, Math.max(0, headEnd - start));
    const tail = text.slice(Math.max(0, tailStart - start));
    const kept = head.length + tail.length >= text.length ? text : head + (markerPlaced ? "" : marker) + tail;
    if (kept !== text) markerPlaced = true;
    if (kept.length > 0) out.push(withText(item, kept));
  }
  return { items: out, omitted };
}

function textOf(c: McpContent): string {
  return c.type === "text" || c.type === "resource" ? c.text : "";
}

function withText(c: McpContent, text: string): McpContent {
  return c.type === "resource" ? { ...c, text } : c.type === "text" ? { type: "text", text } : c;
}

function note(text: string): McpContent {
  return { type: "text", text };
}

function base64Bytes(data: unknown): number {
  return typeof data === "string" ? Math.floor((data.length * 3) / 4) : 0;
}

function stringify(value: unknown): string {
  return typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
