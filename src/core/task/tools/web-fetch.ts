/**
 * web_fetch: reads a web page for the model, after the person approves (the "browser" switch and
 * YOLO govern it; an address on this machine or its private network always asks, and a redirect
 * there is refused). HTML comes back as readable Markdown, JSON pretty-printed, text as sent; the
 * download and the output are both capped, and every cut says so.
 */
import { contentKind, decodeBody, sniffKind, toReadable } from "./web-fetch-content";
import type { ReadableContent } from "./web-fetch-html";
import { deadline, fetchFailure, openUrl, parseWebUrl, readCapped, type OpenedUrl } from "./web-fetch-http";
import { cutText } from "../../files/cut-text";
import { bareHost, localAddressOf } from "../../util/local-addresses";
import { param } from "./params";
import { defineTool, ToolError, type ToolDefinition } from "./types";

export interface WebFetchLimits {
  readonly timeoutMs: number;
  /** Bytes downloaded at most; the rest of the body is never fetched. */
  readonly maxBodyBytes: number;
  /** Bytes of converted text handed to the model at most. */
  readonly maxOutputBytes: number;
  readonly maxRedirects: number;
}

export const WEB_FETCH_LIMITS: WebFetchLimits = {
  timeoutMs: 20_000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxOutputBytes: 100 * 1024,
  maxRedirects: 5,
};

/** The tool with other limits: tests use small ones. */
export function createWebFetchTool(overrides: Partial<WebFetchLimits> = {}): ToolDefinition {
  const limits = { ...WEB_FETCH_LIMITS, ...overrides };
  return defineTool({
    name: "web_fetch",
    description:
      "Fetch a web page or other http(s) URL and read it. HTML pages come back as Markdown of their main content " +
      "(navigation and footers left out), JSON pretty-printed, plain text and Markdown as sent, PDF as its text; " +
      `other binary content is refused. Output is cut at ${kb(limits.maxOutputBytes)} KB. Needs the person's approval.`,
    params: [param.text("url", "The absolute http:// or https:// URL to fetch.", { required: true })],
    readOnly: true,
    approval: "browser",
    example: "<web_fetch>\n<url>https://nodejs.org/api/fs.html</url>\n</web_fetch>",
    async prepare(params, ctx) {
      const url = parseWebUrl(params.url);
      // An address on this machine or its network is the person's to open (auto-approval.ts).
      const local = await localAddressOf(url.hostname);
      const localHost = local === undefined ? undefined : { url: url.href, note: `It fetches ${url.host}${local === bareHost(url.hostname) ? "" : ` (${local})`}, an address on this machine or its private network.` };
      return {
        approval: { message: { tool: "web_fetch", content: url.href }, ...(localHost ? { localHost } : {}) },
        run: async () => {
          const timer = deadline(ctx.signal, limits.timeoutMs);
          // The approved host only: a redirect to another local address, or a name that resolves there since, is refused.
          const allowed = local === undefined ? undefined : url.host;
          try {
            return { kind: "ok", content: await fetchReadable(url, timer.signal, limits, allowed) };
          } catch (error) {
            throw fetchFailure(error, ctx.signal, url, limits.timeoutMs);
          } finally {
            timer.clear();
          }
        },
      };
    },
  });
}

export const webFetchTool = createWebFetchTool();

async function fetchReadable(url: URL, signal: AbortSignal, limits: WebFetchLimits, allowedLocalHost: string | undefined): Promise<string> {
  const opened = await openUrl(url, signal, limits.maxRedirects, async (hop) => {
    if (hop.host === allowedLocalHost) return;
    const local = await localAddressOf(hop.hostname);
    if (local === undefined) return;
    const how = hop.href === url.href ? `${hop.host} resolves to ${local}` : `${url.href} redirected to ${hop.href} (${local})`;
    throw new ToolError("failed", `web_fetch did not fetch ${hop.href}: ${how}, an address on this machine or its private network. Ask for that URL itself, so the person can allow it.`);
  });
  if (!opened.response.ok) throw await httpError(opened);
  const announced = contentKind(opened.mimeType);
  if (announced === "binary") {
    await opened.response.body?.cancel();
    throw binaryRefusal(opened);
  }
  const { body, truncated } = await readCapped(opened.response, limits.maxBodyBytes);
  const kind = announced === "unknown" ? sniffKind(body) : announced;
  if (kind === "binary" || kind === "unknown") throw binaryRefusal(opened);
  if (kind === "pdf" && truncated) {
    throw new ToolError("failed", `The PDF at ${opened.url.href} is larger than ${mb(limits.maxBodyBytes)} MB; web_fetch reads smaller PDFs only.`);
  }
  const readable = await toReadable(kind, { body, charset: opened.charset, url: opened.url, signal });
  return formatPage(url, opened, readable, { truncated, limits });
}

async function httpError(opened: OpenedUrl): Promise<ToolError> {
  const { response, url } = opened;
  const kind = contentKind(opened.mimeType);
  let said = "";
  // An API's error body usually says what was wrong; an HTML error page is mostly markup.
  if (kind === "json" || kind === "text") {
    const { body } = await readCapped(response, 1000);
    said = decodeBody(body, opened.charset, kind).replace(/\s+/g, " ").trim();
  } else {
    await response.body?.cancel();
  }
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  return new ToolError("failed", `${status} from ${url.href}.${said ? ` The response says: ${said}` : ""}`);
}

function binaryRefusal(opened: OpenedUrl): ToolError {
  const type = opened.mimeType ?? "binary data (no content type)";
  return new ToolError(
    "invalid_param",
    `${opened.url.href} returned ${type}, which web_fetch cannot show: it reads HTML, text, Markdown, JSON and PDF.`,
  );
}

function formatPage(requested: URL, opened: OpenedUrl, readable: ReadableContent, cut: { truncated: boolean; limits: WebFetchLimits }): string {
  const head = [`URL: ${opened.url.href}`];
  if (opened.url.href !== requested.href) head.push(`Redirected from: ${requested.href}`);
  if (readable.title) head.push(`Title: ${readable.title}`);
  head.push(`Content-Type: ${opened.mimeType ?? "(none sent)"}`);

  const notes: string[] = [];
  if (readable.note) notes.push(`[${readable.note}]`);
  if (cut.truncated) notes.push(`[The response is larger than ${mb(cut.limits.maxBodyBytes)} MB; only its first ${mb(cut.limits.maxBodyBytes)} MB were downloaded, so the end is missing.]`);
  const shown = cutText(readable.text, cut.limits.maxOutputBytes);
  if (shown.cut) {
    notes.push(`[Output cut at ${kb(cut.limits.maxOutputBytes)} KB: the converted content is ${kb(Buffer.byteLength(readable.text))} KB and the rest is not shown.]`);
  }
  const text = shown.text.trim() === "" ? "(The page has no readable text.)" : shown.text;
  return [head.join("\n"), text, ...notes].join("\n\n");
}

function kb(bytes: number): string {
  return String(Math.round(bytes / 1024));
}

function mb(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "");
}
