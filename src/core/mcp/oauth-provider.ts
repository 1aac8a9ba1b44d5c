/**
 * OAuth for remote servers through the SDK's own flow (`OAuthClientProvider`): discovery,
 * dynamic client registration, PKCE, token refresh and step-up are the SDK's. What Tandem adds
 * is where things live — the client registration, tokens and PKCE verifier of each server in the
 * host's secret store (VS Code's SecretStorage), under one key per server and URL — and who
 * lets the person sign in: the host's `authorize`, which opens the authorization URL and returns
 * the code from the redirect (VS Code: a browser and a URI handler; not built yet).
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** The host's secret storage (VS Code's SecretStorage fits). */
export interface McpSecretStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string | undefined): Promise<void>;
}

export interface McpOAuthHost {
  readonly secrets: McpSecretStore;
  /** Where the authorization server sends the person back (must match what `authorize` listens on). */
  readonly redirectUrl: string;
  readonly clientName?: string;
  /** Lets the person sign in at `url` and resolves with the authorization code from the redirect. */
  authorize(server: string, url: URL): Promise<string>;
}

interface Stored {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  verifier?: string;
}

export class McpOAuthProvider implements OAuthClientProvider {
  private code: string | undefined;
  private stored: Stored | undefined;

  constructor(
    private readonly host: McpOAuthHost,
    private readonly server: string,
    private readonly serverUrl: string,
  ) {}

  get redirectUrl(): string {
    return this.host.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.host.clientName ?? "Tandem",
      redirect_uris: [this.host.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return (await this.load()).client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.save({ client });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.load()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.save({ tokens });
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    await this.save({ verifier });
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.load()).verifier;
    if (!verifier) throw new Error("no PKCE code verifier saved for this authorization");
    return verifier;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.code = await this.host.authorize(this.server, url);
  }

  /** The code `authorize` brought back, once: the hub hands it to `transport.finishAuth`. */
  takeAuthorizationCode(): string | undefined {
    const code = this.code;
    this.code = undefined;
    return code;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const s = await this.load();
    if (scope === "all" || scope === "client") delete s.client;
    if (scope === "all" || scope === "tokens") delete s.tokens;
    if (scope === "all" || scope === "verifier") delete s.verifier;
    await this.save({});
  }

  private key(): string {
    return `tandem.mcp.oauth:${this.server}:${this.serverUrl}`;
  }

  private async load(): Promise<Stored> {
    if (!this.stored) {
      const text = await this.host.secrets.get(this.key());
      try {
        this.stored = text ? (JSON.parse(text) as Stored) : {};
      } catch {
        this.stored = {};
      }
    }
    return this.stored;
  }

  private async save(change: Partial<Stored>): Promise<void> {
    this.stored = { ...(await this.load()), ...change };
    await this.host.secrets.set(this.key(), JSON.stringify(this.stored));
  }
}
