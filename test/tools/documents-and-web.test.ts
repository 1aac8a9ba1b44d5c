/**
 * Documents and web pages through the whole agent loop: the real Controller, the real provider
 * SDKs, the scripted model server, and a local web site on 127.0.0.1 (never the internet).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "../../src/core/task/tools/registry";
import { webFetchTool } from "../../src/core/task/tools/web-fetch";
import { ARTICLE_SENTENCE, ARTICLE_TITLE, NAV_NOISE, startTestSite, type TestSite } from "../support/web-fetch-test-server";
import { DEFAULT_AUTO_APPROVAL, DEFAULT_SANDBOX_SETTINGS } from "../../src/shared/settings";
import { buildDocx } from "../fixtures/documents/build-docx";
import { buildPdf } from "../fixtures/documents/build-pdf";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

const providers = ["anthropic", "openai"] as const;
const tools = { ...TOOLS, web_fetch: webFetchTool };
let harness: Harness | undefined;
let site: TestSite;

beforeAll(async () => (site = await startTestSite()));
afterAll(() => site.close());
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

async function open(options: Omit<HarnessOptions, "tools">): Promise<Harness> {
  harness = await startHarness({ ...options, tools });
  return harness;
}

/** Everything the model was sent in request n, flattened. */
function requestText(h: Harness, n: number): string {
  return JSON.stringify(h.server.requests[n]?.body.messages ?? []);
}

const completion = (result = "Done.") => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const readCall = (path: string) => ({ text: `Reading it.\n<read_file>\n<path>${path}</path>\n</read_file>`, chunkSize: 9 });
/** The test site is on 127.0.0.1, this machine: the person lists it, as anyone fetching their own dev server would. */
const SITE_ALLOWED = { ...DEFAULT_SANDBOX_SETTINGS, allowedDomains: ["127.0.0.1"] };
const fetchCall = (url: string) => ({ text: `Fetching.\n<web_fetch>\n<url>${url}</url>\n</web_fetch>`, chunkSize: 9 });

describe.each(providers)("documents and web pages through %s", (provider) => {
  it("hands a PDF's text to the model, numbered", async () => {
    const h = await open({ provider, answer: approveAll, turns: [readCall("docs/tides.pdf"), completion()] });
    await mkdir(join(h.workspace, "docs"));
    await writeFile(join(h.workspace, "docs/tides.pdf"), buildPdf([["High water 06:12"], ["Low water 12:30"]]));
    expect(await h.run("What does the tide PDF say?")).toBe("completed");
    const sent = requestText(h, 1);
    expect(sent).toContain("1|--- page 1 of 2 ---");
    expect(sent).toContain("2|High water 06:12");
    expect(sent).toContain("4|Low water 12:30");
  });

  it("hands a .docx's paragraphs to the model", async () => {
    const h = await open({ provider, answer: approveAll, turns: [readCall("memo.docx"), completion()] });
    await writeFile(join(h.workspace, "memo.docx"), buildDocx(["To: crew", "Sail at dawn & bring charts."]));
    expect(await h.run("Summarise the memo")).toBe("completed");
    const sent = requestText(h, 1);
    expect(sent).toContain("1|To: crew");
    expect(sent).toContain("2|Sail at dawn & bring charts.");
  });

  it("fetches a page in YOLO mode and the model gets its Markdown, not its navigation", async () => {
    const before = site.requests.length;
    const h = await open({ provider, settings: { yolo: true, sandbox: SITE_ALLOWED }, answer: approveAll, turns: [fetchCall(site.url("/article")), completion()] });
    expect(await h.run("Read the tide article")).toBe("completed");
    expect(site.requests.slice(before)).toEqual(["/article"]);
    expect(JSON.stringify(h.server.requests[0]?.body)).toContain("web_fetch");
    const sent = requestText(h, 1);
    expect(sent).toContain(`Title: ${ARTICLE_TITLE}`);
    expect(sent).toContain(ARTICLE_SENTENCE);
    expect(sent).toContain("## Heights");
    expect(sent).not.toContain(NAV_NOISE);
    expect(h.asks.filter((a) => a.ask === "tool")).toEqual([]);
  });

  it("asks before fetching unless the browser switch approves it", async () => {
    const h = await open({ provider, settings: { sandbox: SITE_ALLOWED }, answer: approveAll, turns: [fetchCall(site.url("/data.json")), completion()] });
    expect(await h.run("Get the data")).toBe("completed");
    expect(h.asks.filter((a) => a.ask === "tool").map((a) => a.tool)).toMatchObject([{ tool: "web_fetch", content: site.url("/data.json") }]);
    expect(requestText(h, 1)).toContain('\\"tides\\": [');

    await h.dispose();
    const auto = await open({
      provider,
      settings: { autoApproval: { ...DEFAULT_AUTO_APPROVAL, useBrowser: true }, sandbox: SITE_ALLOWED },
      answer: approveAll,
      turns: [fetchCall(site.url("/plain")), completion()],
    });
    expect(await auto.run("Get the text")).toBe("completed");
    expect(auto.asks.filter((a) => a.ask === "tool")).toEqual([]);
    expect(requestText(auto, 1)).toContain("plain text, as sent");
  });

  it("sends nothing to the URL when the person declines", async () => {
    const before = site.requests.length;
    const h = await open({
      provider,
      answer: (ask) => (ask.ask === "tool" ? { type: "no", text: "Stay offline." } : { type: "yes" }),
      turns: [fetchCall(site.url("/article?secret=1")), completion()],
    });
    expect(await h.run("Read the article")).toBe("completed");
    expect(site.requests.length).toBe(before);
    expect(requestText(h, 1)).toContain("Stay offline.");
    expect(requestText(h, 1)).not.toContain(ARTICLE_SENTENCE);
  });

  it("returns an HTTP error to the model as a tool error, through native tool calls too", async () => {
    const h = await open({
      provider,
      settings: { yolo: true, toolCallMode: "native", sandbox: SITE_ALLOWED },
      answer: approveAll,
      turns: [
        { toolCalls: [{ id: "f1", name: "web_fetch", input: { url: site.url("/missing") } }] },
        { toolCalls: [{ id: "done", name: "attempt_completion", input: { result: "Page is gone." } }] },
      ],
    });
    expect(await h.run("Fetch the missing page")).toBe("completed");
    expect(JSON.stringify(h.server.requests[0]?.body.tools)).toContain('"web_fetch"');
    expect(requestText(h, 1)).toContain(`HTTP 404 Not Found from ${site.url("/missing")}.`);
    expect(h.messages.some((m) => m.type === "say" && m.say === "error" && m.text?.includes("HTTP 404"))).toBe(true);
  });
});
