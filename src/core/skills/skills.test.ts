import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PathGuard } from "../ignore/path-guard";
import { estimateTokens } from "../context/context-window";
import { findSkills, FRONT_MATTER_LIMIT_BYTES, type SkillSources } from "./discovery";
import { readFrontMatter } from "./front-matter";
import { loadSkill, MAX_LISTED_FILES, SKILL_BODY_LIMIT_BYTES, skillResult } from "./load";
import { ENTRY_TOKEN_LIMIT, skillEntry, skillsSection } from "./prompt-section";
import { TaskSkills } from "./task-skills";
import { SkillTrustMemory, trustSkillsAsFound, type SkillTrustRequest } from "./trust";

let dir: string;
let ws: string;
let global: string;
/** Refuses what the real guard refuses by name (secret-looking files) and anything under ignored/. */
const guard: PathGuard = { isIgnored: (p) => /(^|\/)\.env$/.test(p) || p.includes("/ignored/") };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tandem-skills-"));
  ws = join(dir, "ws");
  global = join(dir, "global-skills");
  await mkdir(ws, { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function put(file: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
}

const skillMd = (name: string, description: string, body = "Body.") => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
const sources = (trusted = true): SkillSources => ({ roots: [ws], globalFolder: global, guard, workspaceTrusted: trusted });

describe("front matter", () => {
  it("reads name and description, quoted or folded, and gives the body without it", () => {
    const read = readFrontMatter('\uFEFF---\r\nname: "pdf"\r\ndescription: >\r\n  Fills PDF forms\r\n  and extracts text.\r\nother: x\r\n---\r\n# Body\r\n');
    expect(read.found).toBe(true);
    expect(read.fields.get("name")).toBe("pdf");
    expect(read.fields.get("description")).toBe("Fills PDF forms and extracts text.");
    expect(read.body.trim()).toBe("# Body");
  });

  it("finds none without an opening and a closing fence", () => {
    expect(readFrontMatter("# Just markdown\nname: x\n").found).toBe(false);
    expect(readFrontMatter("---\nname: x\ndescription: never closed\n").found).toBe(false);
  });
});

describe("finding skills", () => {
  it("finds them in .clinerules/, .tandem/ and .claude/ skills, then the global folder, in that order", async () => {
    await put(join(ws, ".claude/skills/c/SKILL.md"), skillMd("from-claude", "C."));
    await put(join(ws, ".tandem/skills/b/SKILL.md"), skillMd("from-tandem", "B."));
    await put(join(ws, ".clinerules/skills/a/SKILL.md"), skillMd("from-clinerules", "A."));
    await put(join(global, "g/SKILL.md"), skillMd("from-global", "G."));
    await put(join(ws, ".claude/skills/not-a-skill/README.md"), "helpers");
    const found = await findSkills(sources());
    expect(found.skills.map((s) => [s.name, s.source, s.label])).toEqual([
      ["from-clinerules", "workspace", ".clinerules/skills/a"],
      ["from-tandem", "workspace", ".tandem/skills/b"],
      ["from-claude", "workspace", ".claude/skills/c"],
      ["from-global", "global", "global/g"],
    ]);
    expect(found.problems).toEqual([]);
  });

  it("keeps the first of two skills with the same name, and names the other as a problem", async () => {
    await put(join(ws, ".clinerules/skills/one/SKILL.md"), skillMd("deploy", "The workspace's deploy."));
    await put(join(global, "deploy/SKILL.md"), skillMd("deploy", "The global deploy."));
    const found = await findSkills(sources());
    expect(found.skills.map((s) => s.description)).toEqual(["The workspace's deploy."]);
    expect(found.problems).toEqual(["global/deploy is not offered: .clinerules/skills/one has the same name (deploy), and the first found wins."]);
    // The prompt names it once, with the description of the one use_skill loads.
    expect(skillsSection(found.skills)).toContain("- deploy: The workspace's deploy.");
    expect(skillsSection(found.skills)).not.toContain("global deploy");
  });

  it("skips, with a reason and without throwing, a SKILL.md without front matter, name, description, a good name, or UTF-8", async () => {
    await put(join(global, "plain/SKILL.md"), "# No front matter\n");
    await put(join(global, "nameless/SKILL.md"), "---\ndescription: Has no name.\n---\n");
    await put(join(global, "mute/SKILL.md"), "---\nname: mute\n---\n");
    await put(join(global, "spaced/SKILL.md"), skillMd("two words", "Bad name."));
    await put(join(global, "latin1/SKILL.md"), Buffer.concat([Buffer.from("---\nname: latin\ndescription: caf"), Buffer.from([0xe9]), Buffer.from("\n---\n")]));
    await put(join(global, "ok/SKILL.md"), skillMd("ok", "Fine."));
    const found = await findSkills(sources());
    expect(found.skills.map((s) => s.name)).toEqual(["ok"]);
    expect(found.problems).toEqual([
      "global/latin1/SKILL.md is not offered: it is not UTF-8 text.",
      "global/mute/SKILL.md is not offered: its front matter has no description (the model would not know when to use it).",
      "global/nameless/SKILL.md is not offered: its front matter has no name.",
      "global/plain/SKILL.md is not offered: it does not begin with front matter (a --- block with name and description).",
      'global/spaced/SKILL.md is not offered: its name "two words" is not one word of letters, digits, "-", "_" or "." (at most 64).',
    ]);
  });

  it("reads only the head of a huge file: front matter past the limit is refused, a long body is fine", async () => {
    await put(join(global, "long-head/SKILL.md"), `---\nname: long-head\ndescription: ${"x".repeat(FRONT_MATTER_LIMIT_BYTES)}\n---\n`);
    await put(join(global, "long-body/SKILL.md"), skillMd("long-body", "Long body.", "y".repeat(5 * SKILL_BODY_LIMIT_BYTES)));
    const found = await findSkills(sources());
    expect(found.skills.map((s) => s.name)).toEqual(["long-body"]);
    expect(found.problems[0]).toMatch(/long-head\/SKILL\.md is not offered: it does not begin with front matter/);
  });

  it("judges SKILL.md by the ignore guard, as named and where a link leads, and refuses a link out of its root", async () => {
    await put(join(ws, "ignored/real/SKILL.md"), skillMd("hidden", "Ignored."));
    await mkdir(join(ws, ".tandem/skills"), { recursive: true });
    await symlink(join(ws, "ignored/real"), join(ws, ".tandem/skills/linked"));
    await put(join(dir, "outside/SKILL.md"), skillMd("outside", "Out of the workspace."));
    await symlink(join(dir, "outside"), join(ws, ".tandem/skills/escape"));
    await put(join(ws, "shared/inside/SKILL.md"), skillMd("inside", "A link within the workspace."));
    await symlink(join(ws, "shared/inside"), join(ws, ".tandem/skills/inside"));
    const found = await findSkills(sources());
    expect(found.skills.map((s) => s.name)).toEqual(["inside"]);
    expect(found.problems).toEqual([
      expect.stringMatching(/^\.tandem\/skills\/escape\/SKILL\.md is not offered: it leads through a link to .*outside\/SKILL\.md, outside its folder\.$/),
      ".tandem/skills/linked/SKILL.md is not offered: it leads to an ignored or secret file.",
    ]);
  });

  it("offers an untrusted workspace's skills to no one, while the global ones work", async () => {
    await put(join(ws, ".claude/skills/ws/SKILL.md"), skillMd("ws-skill", "From the repository."));
    await put(join(global, "g/SKILL.md"), skillMd("global-skill", "The person's own."));
    const found = await findSkills(sources(false));
    expect(found.skills.map((s) => s.name)).toEqual(["global-skill"]);
    expect(found.untrusted.map((s) => s.name)).toEqual(["ws-skill"]);
  });

  it("finds them once per task, and a failing trust question counts as not trusted", async () => {
    await put(join(ws, ".claude/skills/ws/SKILL.md"), skillMd("ws-skill", "From the repository."));
    const shelf = new TaskSkills([ws], guard, { globalFolder: global, trustWorkspace: () => Promise.reject(new Error("no")) });
    const first = await shelf.find();
    expect(first.skills).toEqual([]);
    expect(first.untrusted.map((s) => s.name)).toEqual(["ws-skill"]);
    await put(join(global, "later/SKILL.md"), skillMd("later", "Added mid-task."));
    expect(await shelf.find()).toBe(first);
    // No trust question at all: the workspace's are off, as hooks are.
    expect((await new TaskSkills([ws], guard, {}).find()).untrusted).toHaveLength(1);
  });
});

describe("trusting a workspace's skills", () => {
  it("asks once per folder that has skills, naming them; a changed SKILL.md is a new fingerprint", async () => {
    const other = join(dir, "other");
    await mkdir(other);
    await put(join(ws, ".claude/skills/ws/SKILL.md"), skillMd("ws-skill", "From the repository."));
    const asked: SkillTrustRequest[] = [];
    const shelf = () => new TaskSkills([ws, other], guard, { trustWorkspace: (request) => (asked.push(request), true) });
    expect((await shelf().find()).skills.map((s) => s.name)).toEqual(["ws-skill"]);
    expect(asked).toEqual([{ folder: ws, skills: [{ name: "ws-skill", path: join(ws, ".claude/skills/ws/SKILL.md") }], fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    await put(join(ws, ".claude/skills/ws/SKILL.md"), skillMd("ws-skill", "From the repository.", "Now also push to main."));
    await shelf().find();
    expect(asked[1]?.fingerprint).not.toBe(asked[0]?.fingerprint);
  });
});

describe("the Controller's memory of trust answers", () => {
  it("asks the host once per fingerprint, a dismissed or failed question included, until asked again", async () => {
    let asked = 0;
    const memory = new SkillTrustMemory(() => (asked++, Promise.reject(new Error("dismissed"))));
    const request = { folder: ws, skills: [], fingerprint: "f" };
    expect(await memory.trustWorkspace?.(request)).toBe(false);
    expect(await memory.trustWorkspace?.(request)).toBe(false);
    expect(asked).toBe(1);
    memory.askAgain();
    await memory.trustWorkspace?.(request);
    expect(asked).toBe(2);
    expect(new SkillTrustMemory(undefined).trustWorkspace).toBeUndefined();
  });
});

describe("trusting skills as the CLI's run found them", () => {
  it("trusts each skill found at the start, and nothing added or changed since", async () => {
    await put(join(ws, ".claude/skills/ws/SKILL.md"), skillMd("ws-skill", "From the repository."));
    const trust = await trustSkillsAsFound([ws]);
    const find = () => new TaskSkills([ws], guard, { trustWorkspace: trust }).find();
    expect((await find()).skills.map((s) => s.name)).toEqual(["ws-skill"]);
    await put(join(ws, ".tandem/skills/new/SKILL.md"), skillMd("new-skill", "Written by the model."));
    expect((await find()).untrusted.map((s) => s.name)).toEqual(["new-skill", "ws-skill"]);
    await rm(join(ws, ".tandem/skills/new"), { recursive: true });
    expect((await find()).skills.map((s) => s.name)).toEqual(["ws-skill"]);
    await put(join(ws, ".claude/skills/ws/SKILL.md"), skillMd("ws-skill", "From the repository.", "Changed."));
    expect((await find()).skills).toEqual([]);
  });
});

describe("the prompt section", () => {
  it(`keeps each entry within ${ENTRY_TOKEN_LIMIT} tokens by the project's estimate, a long description cut with an ellipsis`, () => {
    const short = skillEntry({ name: "pdf", description: "Fills PDF forms." });
    expect(short).toBe("- pdf: Fills PDF forms.");
    const long = skillEntry({ name: "a".repeat(64), description: "word ".repeat(400).trim() });
    expect(long.endsWith("…")).toBe(true);
    for (const entry of [short, long, skillEntry({ name: "q", description: '"\\'.repeat(300) }), skillEntry({ name: "e", description: "🎉".repeat(300) })]) {
      expect(estimateTokens([{ role: "user", content: entry }])).toBeLessThanOrEqual(ENTRY_TOKEN_LIMIT);
    }
    // Cut near the limit, not far below it.
    expect(estimateTokens([{ role: "user", content: long }])).toBeGreaterThan(ENTRY_TOKEN_LIMIT - 5);
  });

  it("lists names and descriptions only, the same bytes for the same skills, and nothing without skills", () => {
    const skills = [{ name: "pdf", description: "Fills PDF forms." }, { name: "deploy", description: "Ships it." }];
    const section = skillsSection(skills);
    expect(section).toMatch(/^SKILLS\n\n.*use_skill.*\n\n- pdf: Fills PDF forms\.\n- deploy: Ships it\.$/s);
    expect(skillsSection(skills.map((s) => ({ ...s })))).toBe(section);
    expect(skillsSection([])).toBeUndefined();
  });
});

describe("loading a skill", () => {
  it("gives the body without front matter and the folder's other files, relative, ignored ones left out", async () => {
    await put(join(global, "pdf/SKILL.md"), skillMd("pdf", "Fills PDF forms.", "# PDF\nUse forms.py."));
    await put(join(global, "pdf/forms.py"), "print()");
    await put(join(global, "pdf/reference/api.md"), "api");
    await put(join(global, "pdf/.env"), "TOKEN=1");
    await put(join(global, "pdf/ignored/x.md"), "x");
    const [skill] = (await findSkills(sources())).skills;
    const loaded = await loadSkill(skill!, guard);
    expect(loaded).toEqual({ body: "# PDF\nUse forms.py.", files: ["forms.py", "reference/api.md"], moreFiles: 0, cut: false });
    const text = skillResult(skill!, loaded);
    expect(text).toContain(`<skill name="pdf" folder="${join(global, "pdf")}">\n# PDF\nUse forms.py.\n</skill>`);
    expect(text).toContain("- reference/api.md");
    expect(text).not.toContain("description:");
  });

  it("bounds the body and the file list", async () => {
    await put(join(global, "big/SKILL.md"), skillMd("big", "Big.", "z".repeat(2 * SKILL_BODY_LIMIT_BYTES)));
    for (let i = 0; i < MAX_LISTED_FILES + 7; i++) await put(join(global, `big/f${String(i).padStart(3, "0")}.txt`), "");
    const [skill] = (await findSkills(sources())).skills;
    const loaded = await loadSkill(skill!, guard);
    expect(loaded.cut).toBe(true);
    expect(loaded.body.length).toBeLessThanOrEqual(SKILL_BODY_LIMIT_BYTES);
    expect(loaded.files).toHaveLength(MAX_LISTED_FILES);
    expect(loaded.moreFiles).toBe(7);
    expect(skillResult(skill!, loaded)).toMatch(/is not shown: it is over 64 KB\.[\s\S]*\(and 7 more not listed\)$/);
  });

  it("refuses a skill whose file became unreadable since the task found it", async () => {
    await put(join(global, "gone/SKILL.md"), skillMd("gone", "Soon gone."));
    const [skill] = (await findSkills(sources())).skills;
    await rm(join(global, "gone"), { recursive: true });
    await expect(loadSkill(skill!, guard)).rejects.toThrow("global/gone/SKILL.md is gone.");
  });
});
