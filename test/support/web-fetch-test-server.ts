/**
 * A small web site on 127.0.0.1 for web_fetch's tests, so they never touch the internet: an
 * article among navigation noise, redirects, errors, JSON, a huge body, binary data and pages that
 * never finish. It records every request it sees.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const ARTICLE_TITLE = "Reading the Tide Tables";
export const ARTICLE_SENTENCE = "Spring tides follow the full and the new moon by a day or two.";
export const NAV_NOISE = "NAVIGATION-NOISE";
export const FOOTER_NOISE = "FOOTER-NOISE";
export const HUGE_BYTES = 6 * 1024 * 1024;

const filler = "Neap tides come at the quarter moons, when the sun and moon pull at right angles. ".repeat(4);

export const ARTICLE_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>${ARTICLE_TITLE} | Harbour Notes</title>
<style>.nav { color: red }</style><script>window.tracking = "SCRIPT-NOISE";</script></head>
<body>
<nav class="nav"><a href="/">Home</a> <a href="/about">About</a> ${NAV_NOISE}</nav>
<article>
  <h1>${ARTICLE_TITLE}</h1>
  <p>${ARTICLE_SENTENCE} ${filler}</p>
  <h2>Heights</h2>
  <p>Heights are given above <a href="/glossary/chart-datum">chart datum</a>. ${filler}</p>
  <ul><li>High water</li><li>Low water</li></ul>
  <pre><code>height = datum + tide</code></pre>
  <p>${filler}</p>
</article>
<footer>${FOOTER_NOISE} &copy; Harbour Notes</footer>
</body></html>`;

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const ROUTES: Readonly<Record<string, Handler>> = {
  "/article": (_req, res) => send(res, 200, "text/html; charset=utf-8", ARTICLE_HTML),
  // Readability finds no article when the only text sits in an aside.
  "/no-article": (_req, res) => send(res, 200, "text/html", "<html><body><aside>Open <b>9 to 5</b> daily.</aside><script>bad()</script></body></html>"),
  "/latin1": (_req, res) => send(res, 200, "text/html", Buffer.from('<html><head><meta charset="iso-8859-1"></head><body><p>Caf\u00e9 cr\u00e8me</p></body></html>', "latin1")),
  "/notes.md": (_req, res) => send(res, 200, "text/markdown; charset=utf-8", "# Notes\n\n- one\n- two\n"),
  "/plain": (_req, res) => send(res, 200, "text/plain", "plain text, as sent\n"),
  "/data.json": (_req, res) => send(res, 200, "application/json", '{"tides":[{"at":"06:12","m":4.1}],"ok":true}'),
  "/broken.json": (_req, res) => send(res, 200, "application/json", '{"cut": [1, 2'),
  "/untyped-text": (_req, res) => send(res, 200, undefined, "no content type, but text\n"),
  "/untyped-binary": (_req, res) => send(res, 200, undefined, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2])),
  "/image.png": (_req, res) => send(res, 200, "image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3])),
  "/missing": (_req, res) => send(res, 404, "text/html", "<html><body><h1>Not here</h1></body></html>"),
  "/api-error": (_req, res) => send(res, 400, "application/json", '{"error":"missing field: station"}'),
  "/crash": (_req, res) => send(res, 500, "text/html", "<h1>oops</h1>"),
  "/huge": (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    const line = `${"x".repeat(1023)}\n`;
    const chunk = line.repeat(64);
    for (let sent = 0; sent < HUGE_BYTES; sent += chunk.length) res.write(chunk);
    res.end();
  },
  "/big-article": (_req, res) => {
    const paragraphs = Array.from({ length: 600 }, (_, i) => `<p>Paragraph ${i + 1}: ${filler}</p>`).join("\n");
    send(res, 200, "text/html", `<html><head><title>Long</title></head><body><article>${paragraphs}</article></body></html>`);
  },
  "/redirect-to-ftp": (_req, res) => redirect(res, "ftp://127.0.0.1/file"),
  "/redirect-nowhere": (_req, res) => {
    res.writeHead(302);
    res.end();
  },
  "/loop": (_req, res) => redirect(res, "/loop"),
  // Headers never come.
  "/stall": () => undefined,
  // Headers and the start of the body come, the rest never does.
  "/stall-body": (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("the beginning");
  },
};

export interface TestSite {
  readonly baseUrl: string;
  /** Paths of every request received, in order. */
  readonly requests: string[];
  url(path: string): string;
  close(): Promise<void>;
}

/** The standard routes, plus (or overridden by) `extra`. */
export async function startTestSite(extra: Readonly<Record<string, Handler>> = {}): Promise<TestSite> {
  const routes = { ...ROUTES, ...extra };
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    requests.push(path);
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) return Number(hop[1]) > 0 ? redirect(res, `/hop/${Number(hop[1]) - 1}`) : routes["/article"]?.(req, res);
    const handler = routes[path];
    if (handler) return handler(req, res);
    send(res, 404, "text/plain", `no route ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    requests,
    url: (path) => `${baseUrl}${path}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export function send(res: ServerResponse, status: number, type: string | undefined, body: string | Buffer): void {
  res.writeHead(status, type ? { "content-type": type } : {});
  res.end(body);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location });
  res.end();
}
