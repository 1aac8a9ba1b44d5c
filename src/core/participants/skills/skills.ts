/**
 * Skills in the loop: when the task opens, its skills are found once (core/skills/task-skills.ts)
 * and what is wrong with any SKILL.md is said in the chat; each request's prompt then carries the
 * same short list of names and descriptions, and use_skill, lent the same list, is offered only
 * when there is a skill to use (or one the person could trust), so a workspace without skills
 * pays nothing for them.
 */
import { skillsSection } from "../../skills/prompt-section";
import type { TaskSkills } from "../../skills/task-skills";
import type { FoundSkills } from "../../skills/discovery";
import type { LentServices, TaskParticipant } from "../../task/participant";
import type { TaskScope } from "../../task/task-scope";
import type { ToolSet } from "../../task/tools/registry";

export const USE_SKILL = "use_skill";

export class SkillsInLoop implements TaskParticipant {
  readonly name = "skills";
  readonly lends: LentServices;
  private found: FoundSkills | undefined;

  constructor(
    private readonly scope: TaskScope,
    private readonly shelf: TaskSkills,
  ) {
    this.lends = { skills: shelf };
  }

  async opened(): Promise<void> {
    this.found = await this.shelf.find();
    if (this.found.problems.length > 0) await this.scope.say("info", `Skills: ${this.found.problems.join(" ")}`);
  }

  async systemPrompt(): Promise<readonly string[]> {
    const found = (this.found ??= await this.shelf.find());
    const section = skillsSection(found.skills);
    if (section) return [section];
    if (found.untrusted.length > 0) return [`SKILLS\n\nThe workspace has skills, but they are off until the person trusts the workspace. ${this.shelf.trustHint}`];
    return [];
  }

  offeredTools(tools: ToolSet): ToolSet {
    const any = this.found && (this.found.skills.length > 0 || this.found.untrusted.length > 0);
    if (any || !Object.hasOwn(tools, USE_SKILL)) return tools;
    return Object.fromEntries(Object.entries(tools).filter(([name]) => name !== USE_SKILL));
  }
}
