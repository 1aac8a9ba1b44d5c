/**
 * The Controller's hooks: where the global ones are, how a workspace's are trusted (the host's
 * question), and the trust decisions, which outlive tasks. Each task gets its own TaskHooks
 * (the hooks participant, participants/hooks/, says when they run).
 */
import { TaskHooks, type TaskHooksDeps } from "./task-hooks";
import { HookTrust, type TrustWorkspaceHooks } from "./trust";

export interface HooksOptions {
  /** `<Tandem storage>/hooks/`; none: no global hooks. */
  readonly globalFolder?: string;
  /** Whether a workspace folder's hooks may run (the host asks the person and remembers); none: they never do. */
  readonly trustWorkspace?: TrustWorkspaceHooks;
  /** What the chat tells the person to do to trust them. */
  readonly trustHint?: string;
}

const DEFAULT_HINT = "This host cannot trust workspace hooks; move them to the global hooks folder to run them.";

export class WorkspaceHooks {
  private readonly trust: HookTrust;

  constructor(private readonly options: HooksOptions = {}) {
    this.trust = new HookTrust(options.trustWorkspace);
  }

  forTask(deps: Omit<TaskHooksDeps, "trust" | "globalFolder" | "trustHint">): TaskHooks {
    const { globalFolder, trustHint } = this.options;
    return new TaskHooks({ ...deps, trust: this.trust, trustHint: trustHint ?? DEFAULT_HINT, ...(globalFolder ? { globalFolder } : {}) });
  }

  /** The person asked to be asked again about workspaces whose hooks they kept off. */
  askAgain(): void {
    this.trust.forget();
  }
}
