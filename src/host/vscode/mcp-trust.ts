/**
 * Whether a workspace's MCP servers may start: a repository can ship a malicious server, so the
 * person is asked once, in a modal that names each server and its command line, and the answer
 * is remembered per fingerprint (the hub's: it changes with any launch line) in workspace state.
 * A "Keep them off" is remembered too, so reopening the folder does not ask again; the MCP view's
 * Trust button asks anew.
 */
import type { WorkspaceTrustRequest } from "../../core/mcp";
import { RememberedTrust, type AskModal, type RememberedAnswer, type TrustMemento } from "./remembered-trust";

export type { AskModal, TrustMemento } from "./remembered-trust";

const KEY = "tandem.mcp.workspaceTrust";
export const TRUST = "Trust and start";
export const KEEP_OFF = "Keep them off";

export class McpWorkspaceTrust {
  private readonly trust: RememberedTrust;

  constructor(
    private readonly memory: TrustMemento,
    ask: AskModal,
    /** VS Code's workspace trust (Restricted Mode answers no, unasked). */
    workspaceTrusted?: () => boolean,
  ) {
    this.trust = new RememberedTrust(ask, { trust: TRUST, keepOff: KEEP_OFF }, workspaceTrusted);
  }

  /** The hub's `trustWorkspace`. */
  readonly decide = (request: WorkspaceTrustRequest): Promise<boolean> =>
    this.trust.decide({
      fingerprint: request.fingerprint,
      remembered: this.memory.get<RememberedAnswer>(KEY),
      message: question(request),
      detail: detail(request),
      remember: (answer) => this.memory.update(KEY, answer),
    });

  /** The person pressed Trust in the MCP view: the next question is asked even if they said no before. */
  willAskAgain(): void {
    this.trust.willAskAgain();
  }
}

function question(request: WorkspaceTrustRequest): string {
  const n = request.servers.length;
  return `This workspace configures ${n} MCP server${n === 1 ? "" : "s"} (${request.file}). Start ${n === 1 ? "it" : "them"}? A server runs with your permissions.`;
}

function detail(request: WorkspaceTrustRequest): string {
  return request.servers.map((s) => `${s.name}: ${s.launch}`).join("\n");
}
