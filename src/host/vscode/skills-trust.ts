/**
 * Whether a workspace folder's skills may be offered (the core's `trustWorkspace` for skills): they
 * are instructions a repository ships, followed as the person's own, so they follow the hooks' rule
 * (hooks-trust.ts): asked once in a modal that names each skill, remembered per folder with the
 * skills' fingerprint in workspace state (a skill added or changed asks again), never in
 * Restricted Mode. "Tandem: Trust Workspace Skills" asks anew after "Keep them off".
 */
import type { SkillTrustRequest } from "../../core/skills/trust";
import { RememberedTrust, type AskModal, type RememberedAnswer, type TrustMemento } from "./remembered-trust";

const KEY = "tandem.skills.workspaceTrust";
export const USE_SKILLS = "Use them";
export const KEEP_SKILLS_OFF = "Keep them off";
export const TRUST_SKILLS_HINT = 'The person can run "Tandem: Trust Workspace Skills" from the Command Palette to be asked again (in Restricted Mode, trust the workspace first).';

type Remembered = Readonly<Record<string, RememberedAnswer>>;

export class SkillsWorkspaceTrust {
  private readonly trust: RememberedTrust;

  constructor(
    private readonly memory: TrustMemento,
    ask: AskModal,
    /** VS Code's workspace trust (Restricted Mode answers no, unasked). */
    workspaceTrusted?: () => boolean,
  ) {
    this.trust = new RememberedTrust(ask, { trust: USE_SKILLS, keepOff: KEEP_SKILLS_OFF }, workspaceTrusted);
  }

  readonly decide = (request: SkillTrustRequest): Promise<boolean> => {
    const all = this.memory.get<Remembered>(KEY) ?? {};
    const n = request.skills.length;
    return this.trust.decide({
      fingerprint: request.fingerprint,
      remembered: all[request.folder],
      message: `This workspace ships ${n} skill${n === 1 ? "" : "s"} (${request.folder}). Offer ${n === 1 ? "it" : "them"} to the model? Tandem follows a skill's instructions as yours.`,
      detail: request.skills.map((s) => `${s.name}: ${s.path}`).join("\n"),
      // Read again: another folder's answer may have been stored while this modal was open.
      remember: (answer) => this.memory.update(KEY, { ...(this.memory.get<Remembered>(KEY) ?? {}), [request.folder]: answer }),
    });
  };

  /** The person ran "Trust Workspace Skills": the next question is asked even if they said no before. */
  willAskAgain(): void {
    this.trust.willAskAgain();
  }
}
