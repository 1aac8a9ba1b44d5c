/**
 * Whether a workspace folder's hooks may run (the core's `trustWorkspace` for hooks): they are
 * programs a repository ships, so the person is asked once, in a modal that names each hook, and
 * the answer is remembered per folder with the hooks' fingerprint (their paths and contents) in
 * workspace state: a hook added or changed asks again. "Keep them off" is remembered too; the
 * command "Tandem: Trust Workspace Hooks" asks anew.
 */
import type * as vscode from "vscode";
import type { HookTrustRequest } from "../../core/hooks";

const KEY = "tandem.hooks.workspaceTrust";
export const RUN_HOOKS = "Trust and run";
export const KEEP_HOOKS_OFF = "Keep them off";
export const TRUST_HOOKS_HINT = 'To be asked again, run "Tandem: Trust Workspace Hooks" from the Command Palette.';

export type HookTrustMemento = Pick<vscode.Memento, "get" | "update">;
/** vscode.window.showWarningMessage with `{ modal: true, detail }`, or a test's stand-in. */
export type AskHooksModal = (message: string, detail: string, ...choices: string[]) => PromiseLike<string | undefined>;

type Remembered = Readonly<Record<string, { readonly fingerprint: string; readonly trusted: boolean }>>;

export class HooksWorkspaceTrust {
  private askAgain = false;

  constructor(
    private readonly memory: HookTrustMemento,
    private readonly ask: AskHooksModal,
  ) {}

  readonly decide = async (request: HookTrustRequest): Promise<boolean> => {
    const all = this.memory.get<Remembered>(KEY) ?? {};
    const remembered = all[request.folder];
    const explicit = this.askAgain;
    this.askAgain = false;
    if (remembered?.fingerprint === request.fingerprint && (remembered.trusted || !explicit)) return remembered.trusted;
    const n = request.hooks.length;
    const message = `This workspace ships ${n} hook${n === 1 ? "" : "s"} (${request.folder}). Run ${n === 1 ? "it" : "them"}? A hook runs with your permissions (inside the command sandbox when it is on).`;
    // The safe answer first: it is the one Enter picks.
    const answer = await this.ask(message, request.hooks.map((h) => `${h.point}: ${h.path}`).join("\n"), KEEP_HOOKS_OFF, RUN_HOOKS);
    // Dismissing the modal stores nothing: the next window asks again (this one keeps the no, as the core remembers answers per fingerprint).
    if (answer === undefined) return false;
    const trusted = answer === RUN_HOOKS;
    await this.memory.update(KEY, { ...all, [request.folder]: { fingerprint: request.fingerprint, trusted } });
    return trusted;
  };

  /** The person ran "Trust Workspace Hooks": the next question is asked even if they said no before. */
  willAskAgain(): void {
    this.askAgain = true;
  }
}
