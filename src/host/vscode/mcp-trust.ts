/**
 * Whether a workspace's MCP servers may start: a repository can ship a malicious server, so the
 * person is asked once, in a modal that names each server and its command line, and the answer
 * is remembered per fingerprint (the hub's: it changes with any launch line) in workspace state.
 * A "Keep them off" is remembered too, so reopening the folder does not ask again; the MCP view's
 * Trust button asks anew.
 */
import type * as vscode from "vscode";
import type { WorkspaceTrustRequest } from "../../core/mcp";

const KEY = "tandem.mcp.workspaceTrust";
export const TRUST = "Trust and start";
export const KEEP_OFF = "Keep them off";

export type TrustMemento = Pick<vscode.Memento, "get" | "update">;
/** vscode.window.showWarningMessage with `{ modal: true, detail }`, or a test's stand-in. */
export type AskModal = (message: string, detail: string, ...choices: string[]) => PromiseLike<string | undefined>;

interface Remembered {
  readonly fingerprint: string;
  readonly trusted: boolean;
}

export class McpWorkspaceTrust {
  private askAgain = false;

  constructor(
    private readonly memory: TrustMemento,
    private readonly ask: AskModal,
  ) {}

  /** The hub's `trustWorkspace`. */
  readonly decide = async (request: WorkspaceTrustRequest): Promise<boolean> => {
    const remembered = this.memory.get<Remembered>(KEY);
    const explicit = this.askAgain;
    this.askAgain = false;
    if (remembered?.fingerprint === request.fingerprint && (remembered.trusted || !explicit)) return remembered.trusted;
    // The safe answer first: it is the one Enter picks.
    const answer = await this.ask(question(request), detail(request), KEEP_OFF, TRUST);
    // Dismissing the modal decides nothing: the next start asks again.
    if (answer === undefined) return false;
    const trusted = answer === TRUST;
    await this.memory.update(KEY, { fingerprint: request.fingerprint, trusted } satisfies Remembered);
    return trusted;
  };

  /** The person pressed Trust in the MCP view: the next question is asked even if they said no before. */
  willAskAgain(): void {
    this.askAgain = true;
  }
}

function question(request: WorkspaceTrustRequest): string {
  const n = request.servers.length;
  return `This workspace configures ${n} MCP server${n === 1 ? "" : "s"} (${request.file}). Start ${n === 1 ? "it" : "them"}? A server runs with your permissions.`;
}

function detail(request: WorkspaceTrustRequest): string {
  return request.servers.map((s) => `${s.name}: ${s.launch}`).join("\n");
}
