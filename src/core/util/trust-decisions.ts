/**
 * A host's answers to "may this workspace's code run?" (hooks, skills), kept by the fingerprint of
 * what was asked about, for the Controller's life (the host remembers across sessions): each
 * fingerprint is asked at most once, so a dismissed question is not asked again at every task, and
 * what changed since is a new question. A rejection or a throw counts as "not trusted".
 */
export class TrustDecisions<Request extends { readonly fingerprint: string }> {
  private readonly decided = new Map<string, Promise<boolean>>();

  constructor(private readonly ask: (request: Request) => boolean | Promise<boolean>) {}

  readonly decide = (request: Request): Promise<boolean> => {
    let decision = this.decided.get(request.fingerprint);
    if (!decision) {
      decision = Promise.resolve()
        .then(() => this.ask(request))
        .then((answer) => answer === true, () => false);
      this.decided.set(request.fingerprint, decision);
    }
    return decision;
  };

  /** The person asked to be asked again (after saying no, or dismissing the question). */
  forget(): void {
    this.decided.clear();
  }
}
