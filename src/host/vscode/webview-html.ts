/**
 * The chat panel's HTML page. Pure (no `vscode` import) so it can be checked in plain Node: a
 * strict Content-Security-Policy, a fresh nonce on every render, and only the extension's own
 * bundled assets (passed in as webview URIs).
 */
import { randomBytes } from "node:crypto";

export interface WebviewAssets {
  /** `webview.cspSource`: the origin the webview serves local resources from. */
  readonly cspSource: string;
  /** `asWebviewUri` of webview-ui/dist/assets/index.js. */
  readonly scriptUri: string;
  /** `asWebviewUri` of webview-ui/dist/assets/index.css. */
  readonly styleUri: string;
}

/** 128 random bits, base64 (a valid CSP nonce-source). */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    // The React app sets style attributes (virtualised list positions), hence 'unsafe-inline'.
    `style-src ${cspSource} 'unsafe-inline'`,
    `font-src ${cspSource}`,
    // data: for images the person pastes into the chat.
    `img-src ${cspSource} data:`,
    "connect-src 'none'",
  ].join("; ");
}

/** What the page shows from its first paint, before the host's state arrives. */
export interface WebviewStart {
  /** An interrupted task is being reopened: the page says "Restoring…" instead of inviting a new task. */
  readonly restoring?: boolean;
}

/**
 * The page. Every call uses a new nonce, so a script injected into one render cannot reuse it.
 * Colours come from VS Code's theme variables (--vscode-*), which the webview styles read.
 */
export function buildWebviewHtml(assets: WebviewAssets, start: WebviewStart = {}, nonce: string = createNonce()): string {
  const csp = contentSecurityPolicy(assets.cspSource, nonce);
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <link rel="stylesheet" href="${escapeAttribute(assets.styleUri)}" />
    <title>Tandem</title>
  </head>
  <body>
    <div id="root"${start.restoring ? ' data-restoring="true"' : ""}></div>
    <script type="module" nonce="${escapeAttribute(nonce)}" src="${escapeAttribute(assets.scriptUri)}"></script>
  </body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Shown instead of the app when webview-ui/dist was never built (a development checkout). No scripts at all. */
export function buildMissingBuildHtml(cspSource: string, missingFile: string): string {
  const csp = `default-src 'none'; style-src ${cspSource} 'unsafe-inline'`;
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}" />
    <title>Tandem</title>
  </head>
  <body style="color: var(--vscode-foreground); font-family: var(--vscode-font-family); padding: 0 12px;">
    <p>Tandem's chat panel is not built: <code>${escapeText(missingFile)}</code> is missing.</p>
    <p>Run <code>npm run build:webview</code>, then reload the window.</p>
  </body>
</html>`;
}

function escapeText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
