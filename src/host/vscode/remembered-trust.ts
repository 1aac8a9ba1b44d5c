/**
 * The one rule both workspace-trust questions follow (MCP servers, hooks): the person is asked in
 * a modal, the safe answer first (the one Enter picks); the answer is remembered with the
 * fingerprint of what was asked about, so a change asks again; a remembered "no" stands until the
 * person asks to be asked again; dismissing the modal remembers nothing. In a window VS Code does
 * not trust (Restricted Mode) the answer is no, unasked.
 */
import type * as vscode from "vscode";

export type TrustMemento = Pick<vscode.Memento, "get" | "update">;
/** vscode.window.showWarningMessage with `{ modal: true, detail }`, or a test's stand-in. */
export type AskModal = (message: string, detail: string, ...choices: string[]) => PromiseLike<string | undefined>;

export interface RememberedAnswer {
  readonly fingerprint: string;
  readonly trusted: boolean;
}

export interface TrustQuestion {
  readonly fingerprint: string;
  readonly remembered: RememberedAnswer | undefined;
  readonly message: string;
  readonly detail: string;
  /** Stores the answer where its owner keeps it. */
  remember(answer: RememberedAnswer): PromiseLike<void>;
}

export class RememberedTrust {
  private askAgain = false;

  constructor(
    private readonly ask: AskModal,
    private readonly labels: { readonly trust: string; readonly keepOff: string },
    /** VS Code's workspace trust: in Restricted Mode nothing a repository ships runs, and nobody is asked. */
    private readonly workspaceTrusted: () => boolean = () => true,
  ) {}

  async decide(question: TrustQuestion): Promise<boolean> {
    if (!this.workspaceTrusted()) return false;
    const { remembered, fingerprint } = question;
    const explicit = this.askAgain;
    this.askAgain = false;
    if (remembered?.fingerprint === fingerprint && (remembered.trusted || !explicit)) return remembered.trusted;
    const answer = await this.ask(question.message, question.detail, this.labels.keepOff, this.labels.trust);
    if (answer === undefined) return false;
    const trusted = answer === this.labels.trust;
    await question.remember({ fingerprint, trusted });
    return trusted;
  }

  /** The next question is asked even if the person said no before. */
  willAskAgain(): void {
    this.askAgain = true;
  }
}
