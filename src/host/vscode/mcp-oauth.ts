/**
 * OAuth sign-in for remote MCP servers in VS Code. The SDK does discovery, registration, PKCE
 * and refresh (core/mcp/oauth-provider.ts); this lends it the editor: its state in SecretStorage,
 * and `authorize` — ask the person, open the authorization page in the browser, and take the code
 * from the redirect back into VS Code (`<scheme>://tandem.tandem/mcp-oauth`, a URI handler).
 *
 * A `state` parameter of our own is added when the SDK sent none, so a redirect is matched to the
 * sign-in that asked for it. Not verified end to end (no OAuth server in the e2e runs): in a browser
 * editor (code-server, vscode.dev) the `vscode://` redirect is not reachable as such and would need
 * `asExternalUri`, which is asynchronous while the SDK wants the redirect URL up front.
 */
import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import type { McpOAuthHost } from "../../core/mcp";

const PATH = "/mcp-oauth";
const SECRET_PREFIX = "tandem.mcp.oauth.";
const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

interface Waiting {
  readonly resolve: (code: string) => void;
  readonly reject: (error: Error) => void;
}

export class McpOAuthBroker implements vscode.UriHandler, vscode.Disposable {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly extensionId: string,
  ) {}

  host(): McpOAuthHost {
    return {
      secrets: {
        get: async (key) => (await this.secrets.get(SECRET_PREFIX + key)) || undefined,
        set: async (key, value) => (value === undefined ? this.secrets.delete(SECRET_PREFIX + key) : this.secrets.store(SECRET_PREFIX + key, value)),
      },
      redirectUrl: `${vscode.env.uriScheme}://${this.extensionId}${PATH}`,
      clientName: "Tandem (VS Code)",
      authorize: (server, url) => this.authorize(server, url),
    };
  }

  handleUri(uri: vscode.Uri): void {
    if (uri.path !== PATH) return;
    const query = new URLSearchParams(uri.query);
    const waiting = this.waiting.get(query.get("state") ?? "");
    if (!waiting) {
      void vscode.window.showWarningMessage("Tandem: a sign-in answer arrived for no MCP server waiting for one; it was ignored.");
      return;
    }
    const code = query.get("code");
    if (code) waiting.resolve(code);
    else waiting.reject(new Error(`the sign-in was refused: ${query.get("error_description") ?? query.get("error") ?? "no code came back"}`));
  }

  dispose(): void {
    for (const w of this.waiting.values()) w.reject(new Error("Tandem is shutting down"));
    this.waiting.clear();
  }

  private async authorize(server: string, url: URL): Promise<string> {
    const choice = await vscode.window.showInformationMessage(`Tandem: the MCP server "${server}" asks you to sign in at ${url.host}.`, "Sign in", "Not now");
    if (choice !== "Sign in") throw new Error(`sign-in to "${server}" was not started`);
    let state = url.searchParams.get("state");
    if (!state) {
      state = randomBytes(16).toString("hex");
      url.searchParams.set("state", state);
    }
    const key = state;
    const code = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no sign-in answer for "${server}" within 5 minutes`)), SIGN_IN_TIMEOUT_MS);
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(key);
      };
      this.waiting.set(key, {
        resolve: (c) => (done(), resolve(c)),
        reject: (e) => (done(), reject(e)),
      });
    });
    if (!(await vscode.env.openExternal(vscode.Uri.parse(url.href, true)))) {
      this.waiting.get(key)?.reject(new Error("the browser could not be opened"));
    }
    return code;
  }
}
