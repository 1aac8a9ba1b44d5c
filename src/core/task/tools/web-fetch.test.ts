import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEncryptedPdf, buildPdf } from "../../../../test/fixtures/documents/build-pdf";
import { fakeToolContext, runTool, type FakeContextScript } from "../../../../test/support/tool-context";
import type { ToolDefinition, ToolResult } from "./types";
import { cutText } from "../../files/cut-text";
import { createWebFetchTool, webFetchTool, WEB_FETCH_LIMITS } from "./web-fetch";
import { ARTICLE_SENTENCE, ARTICLE_TITLE, FOOTER_NOISE, NAV_NOISE, send, startTestSite, type TestSite } from "../../../../test/support/web-fetch-test-server";

let site: TestSite;
beforeAll(
  async () =>
    (site = await startTestSite({
      "/report.pdf": (_req, res) => send(res, 200, "application/pdf", buildPdf([["Annual tide report"], ["Appendix"]])),
      "/locked.pdf": (_req, res) => send(res, 200, "application/pdf", buildEncryptedPdf()),
      // The same machine by another name: a hop the person never saw.
      "/to-localhost": (req, res) => {
        res.writeHead(302, { location: `http://localhost:${(req.headers.host ?? "").split(":").pop()}/article` });
        res.end();
      },
    })),
);
afterAll(() => site.close());

function text(result: ToolResult): string {
  if (result.kind !== "ok" || typeof result.content !== "string") throw new Error(`unexpected result ${JSON.stringify(result)}`);
  return result.content;
}

async function fetchPath(path: string, script: FakeContextScript = {}, tool: ToolDefinition = webFetchTool) {
  const { ctx, log } = fakeToolContext("/nonexistent-workspace", script);
  return { result: await runTool(tool, { url: site.url(path) }, ctx), log };
}

const fetched = async (path: string, tool?: ToolDefinition) => text((await fetchPath(path, {}, tool)).result);

describe("web_fetch", () => {
  it("is a browser-category tool that needs only a url", () => {
    expect(webFetchTool).toMatchObject({ name: "web_fetch", approval: "browser", readOnly: true });
    expect(webFetchTool.params).toEqual([expect.objectContaining({ name: "url", required: true })]);
  });

  it("asks for browser approval with the URL before fetching, then returns the article as Markdown", async () => {
    const before = site.requests.length;
    const { result, log } = await fetchPath("/article");
    // The test site is on 127.0.0.1: an address of this machine, which only the person may open.
    const host = new URL(site.url("/")).host;
    const localHost = { url: site.url("/article"), note: `It fetches ${host}, an address on this machine or its private network.` };
    expect(log.approvals).toEqual([{ category: "browser", message: { tool: "web_fetch", content: site.url("/article") }, localHost }]);
    expect(site.requests.slice(before)).toEqual(["/article"]);
    const out = text(result);
    expect(out.startsWith(`URL: ${site.url("/article")}\nTitle: ${ARTICLE_TITLE} | Harbour Notes\nContent-Type: text/html\n\n`)).toBe(true);
    expect(out).toContain(ARTICLE_SENTENCE);
    expect(out).toContain("## Heights");
    expect(out).toContain(`[chart datum](${site.url("/glossary/chart-datum")})`);
    expect(out).toMatch(/^- +High water\n- +Low water$/m);
    expect(out).toContain("```\nheight = datum + tide\n```");
    for (const noise of [NAV_NOISE, FOOTER_NOISE, "SCRIPT-NOISE", "color: red", "<p>"]) expect(out).not.toContain(noise);
  });

  it("fetches nothing when the person declines, and passes their feedback on", async () => {
    const before = site.requests.length;
    const { result } = await fetchPath("/article", { approvals: [{ approved: false, feedback: { text: "use the docs folder" } }] });
    expect(result).toEqual({ kind: "rejected", feedback: { text: "use the docs folder" } });
    expect(site.requests.length).toBe(before);
  });

  it("falls back to the whole body when there is no article, without scripts", async () => {
    const out = await fetched("/no-article");
    expect(out).toContain("\n\nOpen **9 to 5** daily.\n\n");
    expect(out).toContain("[No main article was found, so the whole page is shown.]");
    expect(out).not.toContain("bad()");
  });

  it("honours a charset declared in a meta tag", async () => {
    expect(await fetched("/latin1")).toContain("Café crème");
  });

  it("follows redirects and names both the final and the requested URL", async () => {
    const before = site.requests.length;
    const out = await fetched("/hop/3");
    expect(site.requests.slice(before)).toEqual(["/hop/3", "/hop/2", "/hop/1", "/hop/0"]);
    expect(out).toContain(`URL: ${site.url("/hop/0")}\nRedirected from: ${site.url("/hop/3")}\n`);
    expect(out).toContain(ARTICLE_SENTENCE);
  });

  it(`stops after ${WEB_FETCH_LIMITS.maxRedirects} redirects`, async () => {
    await expect(fetchPath(`/hop/${WEB_FETCH_LIMITS.maxRedirects}`)).resolves.toBeDefined();
    await expect(fetchPath(`/hop/${WEB_FETCH_LIMITS.maxRedirects + 1}`)).rejects.toMatchObject({ reason: "failed", message: /redirected more than 5 times/ });
    await expect(fetchPath("/loop")).rejects.toMatchObject({ reason: "failed", message: /redirected more than 5 times/ });
  });

  it("refuses a redirect to another local host than the one the person allowed", async () => {
    const before = site.requests.length;
    await expect(fetchPath("/to-localhost")).rejects.toMatchObject({
      reason: "failed",
      message: /did not fetch http:\/\/localhost:\d+\/article: .*redirected to .*\(127\.0\.0\.1\), an address on this machine or its private network\. Ask for that URL itself/,
    });
    expect(site.requests.slice(before)).toEqual(["/to-localhost"]);
  });

  it("refuses a redirect to another scheme and one without a Location", async () => {
    await expect(fetchPath("/redirect-to-ftp")).rejects.toMatchObject({ reason: "failed", message: /redirected to ftp:.*ftp: is not allowed/ });
    await expect(fetchPath("/redirect-nowhere")).rejects.toMatchObject({ reason: "failed", message: /HTTP 302 .*no Location header/ });
  });

  it("reports HTTP errors with their status, and what an API said", async () => {
    await expect(fetchPath("/missing")).rejects.toMatchObject({ name: "ToolError", reason: "failed", message: `HTTP 404 Not Found from ${site.url("/missing")}.` });
    await expect(fetchPath("/crash")).rejects.toMatchObject({ reason: "failed", message: /^HTTP 500 Internal Server Error/ });
    await expect(fetchPath("/api-error")).rejects.toMatchObject({ message: /HTTP 400 Bad Request .*The response says: \{"error":"missing field: station"\}/ });
  });

  it("pretty-prints JSON and shows broken JSON as sent, with a note", async () => {
    const out = await fetched("/data.json");
    expect(out).toContain('Content-Type: application/json\n\n{\n  "tides": [\n    {\n      "at": "06:12",');
    const broken = await fetched("/broken.json");
    expect(broken).toContain('{"cut": [1, 2');
    expect(broken).toContain("[The response is not valid JSON; it is shown as sent.]");
  });

  it("passes Markdown and plain text through, and sniffs untyped bodies", async () => {
    expect(await fetched("/notes.md")).toBe(`URL: ${site.url("/notes.md")}\nContent-Type: text/markdown\n\n# Notes\n\n- one\n- two\n`);
    expect(await fetched("/plain")).toContain("\n\nplain text, as sent\n");
    expect(await fetched("/untyped-text")).toContain("Content-Type: (none sent)\n\nno content type, but text");
  });

  it("shows a PDF's text, and refuses an encrypted one", async () => {
    expect(await fetched("/report.pdf")).toBe(
      `URL: ${site.url("/report.pdf")}\nContent-Type: application/pdf\n\n--- page 1 of 2 ---\nAnnual tide report\n--- page 2 of 2 ---\nAppendix`,
    );
    await expect(fetchPath("/locked.pdf")).rejects.toMatchObject({ reason: "failed", message: /locked\.pdf is an encrypted PDF/ });
  });

  it("refuses binary content with a message saying what it reads", async () => {
    await expect(fetchPath("/image.png")).rejects.toMatchObject({
      reason: "invalid_param",
      message: `${site.url("/image.png")} returned image/png, which web_fetch cannot show: it reads HTML, text, Markdown, JSON and PDF.`,
    });
    await expect(fetchPath("/untyped-binary")).rejects.toMatchObject({ message: /returned binary data \(no content type\)/ });
  });

  it("downloads at most the body cap and says the end is missing", async () => {
    const tool = createWebFetchTool({ maxBodyBytes: 64 * 1024, maxOutputBytes: 1024 * 1024 });
    const out = await fetched("/huge", tool);
    expect(out).toContain("[The response is larger than 0.1 MB; only its first 0.1 MB were downloaded, so the end is missing.]");
    expect(out.length).toBeLessThan(64 * 1024 + 1000);
  });

  it("cuts the output at the cap (100 KB by default) and says so", async () => {
    const out = await fetched("/big-article");
    expect(Buffer.byteLength(out)).toBeLessThan(WEB_FETCH_LIMITS.maxOutputBytes + 1000);
    expect(out).toMatch(/\[Output cut at 100 KB: the converted content is \d+ KB and the rest is not shown\.\]$/);
    expect(out).toContain("Paragraph 1: ");
    expect(out).not.toContain("Paragraph 600: ");
  });

  it("gives up after the timeout with a clear message", async () => {
    const tool = createWebFetchTool({ timeoutMs: 200 });
    await expect(fetchPath("/stall", {}, tool)).rejects.toMatchObject({ reason: "failed", message: /timed out after 0 s/ });
    await expect(fetchPath("/stall-body", {}, tool)).rejects.toMatchObject({ reason: "failed", message: /stall-body timed out/ });
  });

  it("stops at once when the task is cancelled, with the abort error itself", async () => {
    for (const path of ["/stall", "/stall-body"]) {
      const abort = new AbortController();
      const pending = fetchPath(path, { signal: abort.signal });
      await new Promise((resolve) => setTimeout(resolve, 100));
      abort.abort();
      const started = Date.now();
      await expect(pending).rejects.toMatchObject({ name: "AbortError" });
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });

  it("reports a refused connection as a failure", async () => {
    const closed = await startTestSite();
    const url = closed.url("/article");
    await closed.close();
    const { ctx } = fakeToolContext("/nonexistent-workspace");
    await expect(runTool(webFetchTool, { url }, ctx)).rejects.toMatchObject({ reason: "failed", message: /Could not fetch .*ECONNREFUSED/ });
  });

  it("refuses other schemes and relative URLs before asking", async () => {
    const { ctx, log } = fakeToolContext("/nonexistent-workspace");
    await expect(runTool(webFetchTool, { url: "file:///etc/passwd" }, ctx)).rejects.toMatchObject({ reason: "invalid_param", message: /only fetches http and https URLs; file: is not allowed/ });
    await expect(runTool(webFetchTool, { url: "ftp://example.com/x" }, ctx)).rejects.toMatchObject({ message: /ftp: is not allowed/ });
    await expect(runTool(webFetchTool, { url: "example.com/docs" }, ctx)).rejects.toMatchObject({ reason: "invalid_param", message: /not an absolute URL. Did you mean https:\/\/example.com\/docs\?/ });
    await expect(runTool(webFetchTool, { url: "/docs" }, ctx)).rejects.toMatchObject({ message: '"/docs" is not an absolute URL.' });
    expect(log.approvals).toHaveLength(0);
  });
});

describe("cutText", () => {
  it("keeps short text whole and cuts long text at a line break near the limit", () => {
    expect(cutText("short", 10)).toEqual({ text: "short", cut: false });
    const lines = `${"a".repeat(90)}\n${"b".repeat(50)}`;
    expect(cutText(lines, 100)).toEqual({ text: "a".repeat(90), cut: true });
    // A line break far from the limit would waste too much: cut mid-line instead.
    const early = `${"a".repeat(50)}\n${"b".repeat(100)}`;
    expect(cutText(early, 100)).toEqual({ text: early.slice(0, 100), cut: true });
  });

  it("never splits a character", () => {
    expect(cutText("ééééé", 5)).toEqual({ text: "éé", cut: true });
  });
});
