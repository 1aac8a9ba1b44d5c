/**
 * The content half of web_fetch: which media types it can show, how their bytes become text
 * (HTML as readable Markdown, JSON pretty-printed, PDF as its text, other text as sent).
 */
import { extractPdfText } from "../../files/documents";
import { htmlToMarkdown, type ReadableContent } from "./web-fetch-html";

export type ContentKind = "html" | "json" | "text" | "pdf" | "binary" | "unknown";

const TEXT_TYPES = new Set([
  "application/xml",
  "application/javascript",
  "application/x-javascript",
  "application/ecmascript",
  "application/typescript",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/x-sh",
  "application/sql",
  "application/graphql",
  "application/x-ndjson",
  "application/csv",
]);

/** What kind of content a media type announces; "unknown" is sniffed from the bytes. */
export function contentKind(mimeType: string | undefined): ContentKind {
  if (mimeType === undefined || mimeType === "application/octet-stream") return "unknown";
  if (mimeType === "text/html" || mimeType === "application/xhtml+xml") return "html";
  if (mimeType === "application/json" || mimeType.endsWith("+json")) return "json";
  if (mimeType === "application/pdf") return "pdf";
  if (mimeType.startsWith("text/") || mimeType.endsWith("+xml") || TEXT_TYPES.has(mimeType)) return "text";
  return "binary";
}

/** Guesses an unlabelled body: NUL bytes mean binary, a leading tag that opens a page means HTML. */
export function sniffKind(body: Uint8Array): ContentKind {
  const head = body.subarray(0, 8192);
  if (head.includes(0)) return "binary";
  if (Buffer.from(head.subarray(0, 5)).toString("latin1") === "%PDF-") return "pdf";
  return /^\s*<(!doctype\s+html|html|head|body)[\s>]/i.test(Buffer.from(head).toString("utf8")) ? "html" : "text";
}

/** Decodes with the declared charset, else a `<meta charset>` for HTML, else UTF-8. */
export function decodeBody(body: Uint8Array, charset: string | undefined, kind: ContentKind): string {
  const label = charset ?? (kind === "html" ? metaCharset(body) : undefined) ?? "utf-8";
  return decoderFor(label).decode(body);
}

/** A label TextDecoder does not know falls back to UTF-8, what most pages are anyway. */
function decoderFor(label: string): InstanceType<typeof TextDecoder> {
  try {
    return new TextDecoder(label);
  } catch {
    return new TextDecoder("utf-8");
  }
}

function metaCharset(body: Uint8Array): string | undefined {
  const head = Buffer.from(body.subarray(0, 2048)).toString("latin1");
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
}

export async function toReadable(
  kind: Exclude<ContentKind, "binary" | "unknown">,
  page: { body: Uint8Array; charset: string | undefined; url: URL; signal: AbortSignal },
): Promise<ReadableContent> {
  switch (kind) {
    case "pdf":
      return { text: await extractPdfText(page.body, page.url.href, page.signal) };
    case "html":
      return htmlToMarkdown(decodeBody(page.body, page.charset, kind), page.url);
    case "json":
      return prettyJson(decodeBody(page.body, page.charset, kind));
    case "text":
      return { text: decodeBody(page.body, page.charset, kind) };
  }
}

function prettyJson(text: string): ReadableContent {
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2) };
  } catch {
    return { text, note: "The response is not valid JSON; it is shown as sent." };
  }
}
