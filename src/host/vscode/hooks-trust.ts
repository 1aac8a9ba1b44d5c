/**
 * Whether a workspace folder's hooks may run (the core's `trustWorkspace` for hooks): they are
 * programs a repository ships, so the person is asked once, in a modal that names each hook, and
 * the answer is remembered per folder with the hooks' fingerprint (their paths and contents) in
 * workspace state: a hook added or changed asks again. "Keep them off" is remembered too; the
 * command "Tandem: Trust Workspace Hooks" asks anew.
 */
import type { HookTrustRequest } from "../../core/hooks";
import { RememberedTrust, type AskModal, type RememberedAnswer, type TrustMemento } from "./remembered-trust";

const KEY = "tandem.hooks.workspaceTrust";
export const RUN_HOOKS = "Trust and run";
export const KEEP_HOOKS_OFF = "Keep them off";
export const TRUST_HOOKS_HINT = 'To be asked again, run "Tandem: Trust Workspace Hooks" from the Command Palette (in Restricted Mode, trust the workspace first).';

export type HookTrustMemento = TrustMemento;
export type AskHooksModal = AskModal;

/** Each folder's answer, under its path. */
type Remembered = Readonly<Record<string, RememberedAnswer>>;

export class HooksWorkspaceTrust {
  private readonly trust: RememberedTrust;

  constructor(
    private readonly memory: HookTrustMemento,
    ask: AskHooksModal,
    /** VS Code's workspace trust (Restricted Mode answers no, unasked). */
    workspaceTrusted?: () => boolean,
  ) {
    this.trust = new RememberedTrust(ask, { trust: RUN_HOOKS, keepOff: KEEP_HOOKS_OFF }, workspaceTrusted);
  }

  readonly decide = (request: HookTrustRequest): Promise<boolean> => {
    const all = this.memory.get<Remembered>(KEY) ?? {};
    const n = request.hooks.length;
    return this.trust.decide({
      fingerprint: request.fingerprint,
      remembered: all[request.folder],
      message: `This workspace ships ${n} hook${n === 1 ? "" : "s"} (${request.folder}). Run ${n === 1 ? "it" : "them"}? A hook runs with your permissions (inside the command sandbox when it is on).`,
      detail: request.hooks.map((h) => `${h.point}: ${h.path}`).join("\n"),
      // Read again: another folder's answer may have been stored while this modal was open.
      remember: (answer) => this.memory.update(KEY, { ...(this.memory.get<Remembered>(KEY) ?? {}), [request.folder]: answer }),
    });
  };

  /** The person ran "Trust Workspace Hooks": the next question is asked even if they said no before. */
  willAskAgain(): void {
    this.trust.willAskAgain();
  }
}
