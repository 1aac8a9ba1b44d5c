import { describe, expect, it } from "vitest";
import { buildMissingBuildHtml, buildWebviewHtml, contentSecurityPolicy, createNonce } from "../../src/host/vscode/webview-html";

const assets = {
  cspSource: "https://file+.vscode-resource.vscode-cdn.net",
  scriptUri: "https://file+.vscode-resource.vscode-cdn.net/ext/webview-ui/dist/assets/index.js",
  styleUri: "https://file+.vscode-resource.vscode-cdn.net/ext/webview-ui/dist/assets/index.css",
};

function cspOf(html: string): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html);
  if (!match?.[1]) throw new Error("no CSP meta tag");
  return match[1].replace(/&#39;|&apos;/g, "'");
}

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(";").map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name as string, values]));
}

describe("buildWebviewHtml", () => {
  it("declares a strict CSP: nothing by default, scripts only by nonce, local styles/fonts/images, no connections", () => {
    const html = buildWebviewHtml(assets, {}, "abc123");
    const csp = directives(cspOf(html));
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("script-src")).toEqual(["'nonce-abc123'"]);
    expect(csp.get("style-src")).toEqual([assets.cspSource, "'unsafe-inline'"]);
    expect(csp.get("font-src")).toEqual([assets.cspSource]);
    expect(csp.get("img-src")).toEqual([assets.cspSource, "data:"]);
    expect(csp.get("connect-src")).toEqual(["'none'"]);
    expect(html).not.toContain("unsafe-eval");
  });

  it("puts the nonce on every script, and a different one on every render", () => {
    const first = buildWebviewHtml(assets);
    const second = buildWebviewHtml(assets);
    const noncesOf = (html: string) => [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => /nonce="([^"]+)"/.exec(m[1] ?? "")?.[1]);
    const one = noncesOf(first);
    const two = noncesOf(second);
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((n) => n !== undefined && cspOf(first).includes(`'nonce-${n}'`))).toBe(true);
    expect(two.every((n) => n !== undefined && cspOf(second).includes(`'nonce-${n}'`))).toBe(true);
    expect(one[0]).not.toBe(two[0]);
  });

  it("loads only the given asset URIs, from no other origin", () => {
    const html = buildWebviewHtml(assets);
    expect(html).toContain(`src="${assets.scriptUri}"`);
    expect(html).toContain(`href="${assets.styleUri}"`);
    const origins = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1] as string).origin);
    expect(new Set(origins)).toEqual(new Set([new URL(assets.cspSource).origin]));
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>\s*\S/); // no inline script bodies
    expect(html).toContain('<div id="root"></div>');
  });

  it("marks the root when an interrupted task is being reopened, so the first paint says so", () => {
    expect(buildWebviewHtml(assets, { restoring: true })).toContain('<div id="root" data-restoring="true"></div>');
    expect(buildWebviewHtml(assets, { restoring: false })).toContain('<div id="root"></div>');
  });

  it("escapes attribute values", () => {
    const html = buildWebviewHtml({ ...assets, scriptUri: 'https://x/"><script>alert(1)</script>' });
    expect(html).not.toContain("<script>alert(1)");
  });
});

describe("createNonce", () => {
  it("makes 128-bit base64 values that differ", () => {
    const nonces = new Set(Array.from({ length: 50 }, createNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});

describe("contentSecurityPolicy / buildMissingBuildHtml", () => {
  it("the error page has no script source at all", () => {
    const html = buildMissingBuildHtml(assets.cspSource, "/ext/webview-ui/dist/assets/index.js");
    expect(directives(cspOf(html)).get("script-src")).toBeUndefined();
    expect(directives(cspOf(html)).get("default-src")).toEqual(["'none'"]);
    expect(html).not.toContain("<script");
    expect(html).toContain("npm run build:webview");
  });

  it("names the nonce it is given", () => {
    expect(contentSecurityPolicy("vscode-resource:", "n0nce")).toContain("script-src 'nonce-n0nce'");
  });
});
