/**
 * Finds the skills: each folder holding a `SKILL.md` directly under a workspace folder's
 * `.clinerules/skills/`, `.tandem/skills/` or `.claude/skills/`, or under the global folder
 * (`<Tandem storage>/skills/`). The workspace's are searched first (they are the more specific),
 * root by root in that folder order, then the global ones; where two share a name the first found
 * wins and the other is named as a problem, never listed.
 *
 * Workspace skills are instructions a repository ships, so they follow the hooks' rule: only a
 * trusted workspace folder's are offered (trust.ts). Those of an untrusted one are still found (`untrusted`), so
 * use_skill can say why it refuses one and how to trust it.
 *
 * Each SKILL.md is judged like a workflow (slash/workflows.ts): by the ignore guard on its named
 * and its real path, and a link must not lead out of its folder's root. Only the head of the file
 * is read here (the front matter); the body is read when the model asks for it (load.ts).
 */
import { open, readdir, realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import type { PathGuard } from "../ignore/path-guard";
import { errorText } from "../util/error-text";
import { isWithin } from "../util/real-paths";
import { readFrontMatter } from "./front-matter";

/** Where a workspace folder's skills are, in search order. */
export const WORKSPACE_SKILL_FOLDERS = [".clinerules/skills", ".tandem/skills", ".claude/skills"] as const;
export const SKILL_FILE = "SKILL.md";
/** Front matter longer than this is not front matter: the file is refused, not read whole. */
export const FRONT_MATTER_LIMIT_BYTES = 16 * 1024;
/** A name is a word the model can type back: letters, digits, `-`, `_`, `.` (Anthropic's rule, with capitals allowed). */
export const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** So one folder of thousands cannot make discovery slow. */
export const MAX_SKILLS_PER_FOLDER = 200;

export type SkillSource = "workspace" | "global";

export interface Skill {
  readonly name: string;
  readonly description: string;
  readonly source: SkillSource;
  /** As the person knows it: `.claude/skills/pdf`, `global/pdf`. */
  readonly label: string;
  /** The skill's folder, as found. */
  readonly folder: string;
  /** Its SKILL.md, as found. */
  readonly file: string;
  /** The folder a link must not lead out of (the workspace folder, or the global folder). */
  readonly root: string;
}

export interface SkillSources {
  /** The workspace folders, the primary first. */
  readonly roots: readonly string[];
  /** `<Tandem storage>/skills/`; none: no global skills. */
  readonly globalFolder?: string;
  readonly guard: PathGuard;
  /** Whether a workspace folder's skills may be offered (the hooks' trust rule), asked only for a folder that has some. */
  readonly workspaceTrusted: boolean | ((folder: string, skills: readonly Skill[]) => Promise<boolean>);
}

export interface FoundSkills {
  /** What the model may use, each name once, in search order. */
  readonly skills: readonly Skill[];
  /** The workspace's skills kept off because the workspace is not trusted. */
  readonly untrusted: readonly Skill[];
  /** One sentence per SKILL.md that is not offered, and why. */
  readonly problems: readonly string[];
}

export async function findSkills(sources: SkillSources): Promise<FoundSkills> {
  const problems: string[] = [];
  const trusted: Skill[] = [];
  const untrusted: Skill[] = [];
  for (const root of sources.roots) {
    const ofRoot: Skill[] = [];
    for (const folder of WORKSPACE_SKILL_FOLDERS) ofRoot.push(...(await skillsIn({ folder: path.join(root, folder), root, source: "workspace", label: folder }, sources.guard, problems)));
    if (ofRoot.length === 0) continue;
    const trust = sources.workspaceTrusted;
    const allowed = typeof trust === "boolean" ? trust : await trust(root, ofRoot);
    (allowed ? trusted : untrusted).push(...ofRoot);
  }
  const { globalFolder } = sources;
  const global = globalFolder ? await skillsIn({ folder: globalFolder, root: globalFolder, source: "global", label: "global" }, sources.guard, problems) : [];
  const offered = [...trusted, ...global];
  const skills: Skill[] = [];
  const byName = new Map<string, Skill>();
  for (const skill of offered) {
    const first = byName.get(skill.name);
    if (first) {
      problems.push(`${skill.label} is not offered: ${first.label} has the same name (${skill.name}), and the first found wins.`);
      continue;
    }
    byName.set(skill.name, skill);
    skills.push(skill);
  }
  return { skills, untrusted: untrusted.filter((skill) => !byName.has(skill.name)), problems };
}

/** A folder of skills: where it is, the root its links must stay in, and how the person knows it. */
interface SkillsFolder {
  readonly folder: string;
  readonly root: string;
  readonly source: SkillSource;
  readonly label: string;
}

async function skillsIn({ folder, root, source, label }: SkillsFolder, guard: PathGuard, problems: string[]): Promise<Skill[]> {
  let names: string[];
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    names = entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name);
  } catch {
    // No such folder (the usual case), or one that cannot be listed: nothing from it.
    return [];
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (names.length > MAX_SKILLS_PER_FOLDER) {
    problems.push(`${label} holds ${names.length} folders; only the first ${MAX_SKILLS_PER_FOLDER} are read.`);
    names = names.slice(0, MAX_SKILLS_PER_FOLDER);
  }
  const out: Skill[] = [];
  for (const entry of names) {
    const skillFolder = path.join(folder, entry);
    const file = path.join(skillFolder, SKILL_FILE);
    const shown = `${label}/${entry}`;
    const read = await readSkillHead(file, root, guard);
    // A folder without a SKILL.md is just a folder (helpers, a README): nothing to say.
    if (read === "missing") continue;
    if (typeof read !== "object") {
      problems.push(`${shown}/${SKILL_FILE} is not offered: ${read}.`);
      continue;
    }
    const front = readFrontMatter(read.text);
    if (!front.found) {
      problems.push(`${shown}/${SKILL_FILE} is not offered: it does not begin with front matter (a --- block with name and description).`);
      continue;
    }
    const name = front.fields.get("name")?.trim() ?? "";
    const description = oneLine(front.fields.get("description") ?? "");
    if (!name) problems.push(`${shown}/${SKILL_FILE} is not offered: its front matter has no name.`);
    else if (!SKILL_NAME.test(name)) problems.push(`${shown}/${SKILL_FILE} is not offered: its name "${oneLine(name).slice(0, 80)}" is not one word of letters, digits, "-", "_" or "." (at most 64).`);
    else if (!description) problems.push(`${shown}/${SKILL_FILE} is not offered: its front matter has no description (the model would not know when to use it).`);
    else out.push({ name, description, source, label: shown, folder: skillFolder, file, root });
  }
  return out;
}

/** The file's head as text, "missing", or why it may not be read. */
async function readSkillHead(file: string, root: string, guard: PathGuard): Promise<{ text: string } | "missing" | string> {
  const real = await checkSkillFile(file, root, guard);
  if (typeof real !== "object") return real;
  let bytes: Buffer;
  try {
    const handle = await open(real.real, "r");
    try {
      const buffer = Buffer.alloc(FRONT_MATTER_LIMIT_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      bytes = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    return `it could not be read (${errorText(error)})`;
  }
  const text = decodeUtf8(bytes);
  return text === undefined ? "it is not UTF-8 text" : { text };
}

/**
 * Why a skill's file may not be read, "missing", or where it really is. Named and real path are
 * both judged by the guard; a link must land inside the root as it really is.
 */
export async function checkSkillFile(file: string, root: string, guard: PathGuard): Promise<{ real: string } | "missing" | string> {
  if (guard.isIgnored(file)) return "it is ignored (.tandemignore, .clineignore or a secret-looking name)";
  let real: string;
  try {
    real = await realpath(file);
    if (!(await stat(real)).isFile()) return "it is not a regular file";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "missing" : `it could not be read (${errorText(error)})`;
  }
  if (real !== file) {
    const realRoot = await realpath(root).catch(() => root);
    if (!isWithin(realRoot, real)) return `it leads through a link to ${real}, outside its folder`;
    if (guard.isIgnored(real)) return "it leads to an ignored or secret file";
  }
  return { real };
}

/**
 * Strict UTF-8 (a cut at the end of a bounded read is not an error: the partial character is
 * dropped); undefined for text in another encoding or a binary file.
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true }).replace(/^\uFEFF/, "");
  } catch {
    return undefined;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
