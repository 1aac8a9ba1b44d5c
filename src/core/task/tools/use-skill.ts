/**
 * use_skill: loads one of the skills the system prompt lists (core/skills): its SKILL.md without
 * the front matter, and the other files of its folder, which the model reads with read_file when
 * the instructions call for them. It reads only what the task's skills participant found when the
 * task opened, judged again by the ignore guard now; an untrusted workspace's skill is refused
 * with what the person can do about it.
 */
import { loadSkill, skillResult } from "../../skills/load";
import { errorText } from "../../util/error-text";
import { param } from "./params";
import { defineTool, ToolError } from "./types";

export const useSkillTool = defineTool({
  name: "use_skill",
  description:
    "Load a skill listed under SKILLS in the system prompt: returns its instructions (its SKILL.md) and the list of other files in its folder. " +
    "Use it when the task matches the skill's description, before starting that work, then follow the instructions.",
  params: [param.text("name", "The skill's name, exactly as listed under SKILLS.", { required: true })],
  readOnly: true,
  runsWhenCutOff: true,
  approval: "read",
  example: "<use_skill>\n<name>release-notes</name>\n</use_skill>",
  async prepare({ name }, ctx) {
    if (!ctx.skills) throw new ToolError("not_allowed", "Skills are not available in this session.");
    const wanted = name.trim();
    const found = await ctx.skills.find();
    const skill = found.skills.find((s) => s.name === wanted);
    if (!skill) {
      if (found.untrusted.some((s) => s.name === wanted)) {
        throw new ToolError("not_allowed", `The skill "${wanted}" comes with this workspace, which the person has not trusted, so it may not be used. ${ctx.skills.trustHint}`);
      }
      const names = found.skills.map((s) => s.name);
      throw new ToolError("not_found", `There is no skill named "${wanted}". ${names.length > 0 ? `The skills are: ${names.join(", ")}.` : "This task has no skills."}`);
    }
    return {
      approval: { message: { tool: "use_skill", path: skill.label, content: skill.file } },
      run: async () => {
        try {
          return { kind: "ok", content: skillResult(skill, await loadSkill(skill, ctx.ignore)) };
        } catch (error) {
          throw new ToolError("failed", errorText(error));
        }
      },
    };
  },
});
