import { mkdir, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeToolContext, runTool, tempDir } from "../../../../test/support/tool-context";
import { SkillsInLoop } from "../../participants/skills/skills";
import { TaskSkills, type SkillsOptions } from "../../skills/task-skills";
import type { TaskScope } from "../task-scope";
import { TOOLS } from "./registry";
import { useSkillTool } from "./use-skill";

let root: string;
let cleanup: () => Promise<void>;
let global: string;

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir("tandem-use-skill-"));
  global = path.join(root, "..", `${path.basename(root)}-global`);
  await put(path.join(root, ".clinerules/skills/review/SKILL.md"), "---\nname: review\ndescription: Reviews a change.\n---\nRead the diff first.\n");
  await put(path.join(global, "notes/SKILL.md"), "---\nname: notes\ndescription: Keeps notes.\n---\nWrite NOTES.md.\n");
});
afterEach(async () => {
  await cleanup();
  await rm(global, { recursive: true, force: true });
});

async function put(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

function context(options: SkillsOptions) {
  const { ctx } = fakeToolContext(root);
  return { ...ctx, skills: new TaskSkills([root], ctx.ignore, options) };
}

describe("use_skill", () => {
  it("loads a skill of a trusted workspace and a global one", async () => {
    const ctx = context({ globalFolder: global, trustWorkspace: () => true });
    const review = await runTool(useSkillTool, { name: "review" }, ctx);
    expect(review).toMatchObject({ kind: "ok", content: expect.stringContaining("Read the diff first.") });
    const notes = await runTool(useSkillTool, { name: "notes" }, ctx);
    expect(notes).toMatchObject({ kind: "ok", content: expect.stringContaining("Write NOTES.md.") });
  });

  it("refuses an untrusted workspace's skill and says how to trust it; the global ones still work", async () => {
    const ctx = context({ globalFolder: global, trustWorkspace: () => false, trustHint: "Run with --trust-workspace to use them." });
    await expect(runTool(useSkillTool, { name: "review" }, ctx)).rejects.toThrow(/has not trusted, so it may not be used\. Run with --trust-workspace to use them\./);
    expect(await runTool(useSkillTool, { name: "notes" }, ctx)).toMatchObject({ kind: "ok" });
  });

  it("answers an unknown name with the skills there are", async () => {
    const ctx = context({ globalFolder: global, trustWorkspace: () => true });
    await expect(runTool(useSkillTool, { name: "deploy" }, ctx)).rejects.toThrow('There is no skill named "deploy". The skills are: review, notes.');
  });
});

describe("the skills participant", () => {
  function participant(options: SkillsOptions): { skills: SkillsInLoop; said: string[] } {
    const said: string[] = [];
    const scope = { say: (_kind: string, text: string) => Promise.resolve(void said.push(text)) } as unknown as TaskScope;
    return { skills: new SkillsInLoop(scope, new TaskSkills([root], { isIgnored: () => false }, options)), said };
  }

  it("puts the same section in every request and offers use_skill only where there are skills", async () => {
    await put(path.join(root, ".tandem/skills/bad/SKILL.md"), "no front matter");
    const { skills, said } = participant({ globalFolder: global, trustWorkspace: () => true });
    await skills.opened();
    expect(said).toEqual([expect.stringMatching(/^Skills: \.tandem\/skills\/bad\/SKILL\.md is not offered: it does not begin with front matter/)]);
    const first = await skills.systemPrompt();
    expect(first).toEqual([expect.stringMatching(/\n- review: Reviews a change\.\n- notes: Keeps notes\.$/)]);
    // A skill added mid-task waits for the next task: the prompt stays byte-identical.
    await put(path.join(global, "later/SKILL.md"), "---\nname: later\ndescription: Later.\n---\n");
    expect(await skills.systemPrompt()).toEqual(first);
    expect(Object.keys(skills.offeredTools(TOOLS))).toContain("use_skill");
  });

  it("without skills it offers no use_skill; with only untrusted ones it says they are off", async () => {
    const empty = participant({ globalFolder: path.join(root, "nowhere") });
    await rm(path.join(root, ".clinerules"), { recursive: true });
    await empty.skills.opened();
    expect(await empty.skills.systemPrompt()).toEqual([]);
    expect(Object.keys(empty.skills.offeredTools(TOOLS))).not.toContain("use_skill");

    await put(path.join(root, ".claude/skills/x/SKILL.md"), "---\nname: x\ndescription: X.\n---\n");
    const untrusted = participant({ trustHint: "Trust it." });
    await untrusted.skills.opened();
    expect(await untrusted.skills.systemPrompt()).toEqual(["SKILLS\n\nThe workspace has skills, but they are off until the person trusts the workspace. Trust it."]);
    expect(Object.keys(untrusted.skills.offeredTools(TOOLS))).toContain("use_skill");
  });
});
