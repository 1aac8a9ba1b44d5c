/**
 * The network half of web_fetch: Node's fetch with redirects followed by hand (to count them and
 * to refuse a hop to another scheme), a body read that stops at a byte cap, and failures turned
 * into messages the model can act on.
 */
import { ToolError } from "./types";
import { errorText } from "../../util/error-text";

export interface OpenedUrl {
  /** Where the last hop landed. */
  readonly url: URL;
  readonly response: Response;
  /** The media type, lower-cased, without parameters; undefined when the server sent none. */
  readonly mimeType: string | undefined;
  readonly charset: string | undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The URL the model gave, if it is an absolute http(s) URL. */
export function parseWebUrl(raw: string): URL {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const hint = /^[\w-]+(\.[\w-]+)+([/:?#]|$)/.test(text) ? ` Did you mean https://${text}?` : "";
    throw new ToolError("invalid_param", `"${text}" is not an absolute URL.${hint}`);
  }
  requireWebScheme(url, "invalid_param");
  return url;
}

function requireWebScheme(url: URL, reason: "invalid_param" | "failed", via = ""): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolError(reason, `web_fetch only fetches http and https URLs${via}; ${url.protocol.slice(0, -1)}: is not allowed.`);
  }
}

/**
 * A signal that aborts with the task or after `ms`, and its cleanup. A plain timer, because the
 * signal of AbortSignal.timeout is held weakly: combined through AbortSignal.any it can be
 * garbage-collected mid-request and then never fire.
 */
export function deadline(taskSignal: AbortSignal, ms: number): { signal: AbortSignal; clear(): void } {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new DOMException(`timed out after ${ms} ms`, "TimeoutError")), ms);
  return { signal: AbortSignal.any([taskSignal, timeout.signal]), clear: () => clearTimeout(timer) };
}

/** Requests `start`, following up to `maxRedirects` redirects; the body is left unread. `check` may refuse a hop (it throws) before it is requested. */
export async function openUrl(start: URL, signal: AbortSignal, maxRedirects: number, check: (hop: URL) => Promise<void> = async () => undefined): Promise<OpenedUrl> {
  let url = start;
  for (let hops = 0; ; hops++) {
    await check(url);
    const response = await fetch(url, {
      signal,
      redirect: "manual",
      headers: { accept: "text/html,application/xhtml+xml,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.5" },
    });
    if (!REDIRECT_STATUSES.has(response.status)) return { url, response, ...mediaType(response.headers.get("content-type")) };
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (!location) throw new ToolError("failed", `HTTP ${response.status} from ${url.href} redirects without saying where (no Location header).`);
    if (hops === maxRedirects) throw new ToolError("failed", `${start.href} redirected more than ${maxRedirects} times; stopped at ${url.href}.`);
    const next = new URL(location, url);
    requireWebScheme(next, "failed", ` (${url.href} redirected to ${next.href})`);
    url = next;
  }
}

function mediaType(header: string | null): { mimeType: string | undefined; charset: string | undefined } {
  if (!header) return { mimeType: undefined, charset: undefined };
  const [type, ...params] = header.split(";");
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find((c) => c !== undefined);
  return { mimeType: type?.trim().toLowerCase() || undefined, charset };
}

/** Reads the body up to `maxBytes`; past that the download is cancelled and `truncated` is set. */
export async function readCapped(response: Response, maxBytes: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!response.body) return { body: new Uint8Array(), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body: Buffer.concat(chunks), truncated: false };
      chunks.push(value);
      size += value.byteLength;
      if (size >= maxBytes) {
        const whole = Buffer.concat(chunks);
        return { body: whole.subarray(0, maxBytes), truncated: size > maxBytes || !(await reader.read()).done };
      }
    }
  } finally {
    // Stops the download when we quit early; a rejection here only repeats the read's own error.
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * A failure as the model should see it. The task's own cancellation passes through untouched, so
 * the executor can tell it apart from the fetch going wrong.
 */
export function fetchFailure(error: unknown, taskSignal: AbortSignal, url: URL, timeoutMs: number): unknown {
  if (error instanceof ToolError || taskSignal.aborted) return error;
  if (error instanceof Error && error.name === "TimeoutError") {
    return new ToolError("failed", `Fetching ${url.href} timed out after ${Math.round(timeoutMs / 1000)} s.`);
  }
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const detail = cause?.message || cause?.code || errorText(error);
  return new ToolError("failed", `Could not fetch ${url.href}: ${detail}.`);
}
