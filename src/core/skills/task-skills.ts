/**
 * One task's skills, found once when the task opens and kept for its life: the system prompt must
 * stay byte-identical from request to request (prompt caching), so a skill added mid-task waits
 * for the next task. The participant (participants/skills/) reads it for the prompt; use_skill
 * reads the same list (lent to the tools), so what the prompt names is what the tool knows.
 */
import type { PathGuard } from "../ignore/path-guard";
import { errorText } from "../util/error-text";
import { findSkills, type FoundSkills, type Skill } from "./discovery";
import { skillTrustRequest, type TrustWorkspaceSkills } from "./trust";

/** What the Controller knows of skills, for every task. */
export interface SkillsOptions {
  /** `<Tandem storage>/skills/`; none: no global skills. */
  readonly globalFolder?: string;
  /** Whether a workspace folder's skills may be offered (the host asks, as for its hooks); none: they never are. */
  readonly trustWorkspace?: TrustWorkspaceSkills;
  /** What the model is told to tell the person, to trust the workspace's skills. */
  readonly trustHint?: string;
}

export const DEFAULT_SKILLS_TRUST_HINT = "This host cannot trust workspace skills; move them to the global skills folder to use them.";

/** What use_skill reads (the tools' context). */
export interface SkillShelf {
  find(): Promise<FoundSkills>;
  readonly trustHint: string;
}

export class TaskSkills implements SkillShelf {
  private found: Promise<FoundSkills> | undefined;
  readonly trustHint: string;

  constructor(
    private readonly roots: readonly string[],
    private readonly guard: PathGuard,
    private readonly options: SkillsOptions,
  ) {
    this.trustHint = options.trustHint ?? DEFAULT_SKILLS_TRUST_HINT;
  }

  /** The skills as the task first found them (never rejects: a failure is a problem said, not a crash). */
  find(): Promise<FoundSkills> {
    this.found ??= this.search().catch((error: unknown) => ({ skills: [], untrusted: [], problems: [`The skills could not be read (${errorText(error)}).`] }));
    return this.found;
  }

  private async search(): Promise<FoundSkills> {
    const { globalFolder, trustWorkspace } = this.options;
    const trusted = async (folder: string, skills: readonly Skill[]): Promise<boolean> => {
      if (!trustWorkspace) return false;
      return Promise.resolve()
        .then(async () => trustWorkspace(await skillTrustRequest(folder, skills)))
        .then((answer) => answer === true, () => false);
    };
    return findSkills({ roots: this.roots, guard: this.guard, workspaceTrusted: trusted, ...(globalFolder ? { globalFolder } : {}) });
  }
}
