/**
 * A skill as use_skill hands it to the model: the SKILL.md body without its front matter (bounded)
 * and the other files of its folder (relative paths, bounded in number and depth), so the model
 * reads only those the instructions call for. The file is judged again now (it may have changed
 * or become a link since the task listed it); files the ignore guard refuses are not listed.
 */
import { open, readdir } from "node:fs/promises";
import * as path from "node:path";
import type { PathGuard } from "../ignore/path-guard";
import { checkSkillFile, decodeUtf8, SKILL_FILE, type Skill } from "./discovery";
import { readFrontMatter } from "./front-matter";

/** A skill is instructions, not a document: generous, but a runaway file cannot fill the context. */
export const SKILL_BODY_LIMIT_BYTES = 64 * 1024;
export const MAX_LISTED_FILES = 50;
const MAX_DEPTH = 4;

export interface LoadedSkill {
  readonly body: string;
  /** Relative to the skill's folder, with `/`. */
  readonly files: readonly string[];
  /** Files past MAX_LISTED_FILES, not listed. */
  readonly moreFiles: number;
  readonly cut: boolean;
}

/** Throws with the reason when the skill may not be read now. */
export async function loadSkill(skill: Skill, guard: PathGuard): Promise<LoadedSkill> {
  const checked = await checkSkillFile(skill.file, skill.root, guard);
  if (checked === "missing") throw new Error(`${skill.label}/${SKILL_FILE} is gone.`);
  if (typeof checked !== "object") throw new Error(`${skill.label}/${SKILL_FILE} may not be read: ${checked}.`);
  const handle = await open(checked.real, "r");
  let bytes: Buffer;
  let size: number;
  try {
    size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(size, SKILL_BODY_LIMIT_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    bytes = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) throw new Error(`${skill.label}/${SKILL_FILE} is not UTF-8 text.`);
  const listed = await listFiles(skill.folder, guard);
  return { body: readFrontMatter(text).body.trim(), files: listed.files, moreFiles: listed.more, cut: size > SKILL_BODY_LIMIT_BYTES };
}

/** The skill as the tool result says it. */
export function skillResult(skill: Skill, loaded: LoadedSkill): string {
  const parts = [`<skill name="${skill.name}" folder="${skill.folder}">`, loaded.body];
  if (loaded.cut) parts.push(`[The rest of ${SKILL_FILE} is not shown: it is over ${SKILL_BODY_LIMIT_BYTES / 1024} KB.]`);
  parts.push("</skill>");
  if (loaded.files.length > 0) {
    parts.push("", `Other files in the skill's folder (${skill.folder}); read one with read_file when the instructions call for it:`);
    parts.push(...loaded.files.map((file) => `- ${file}`));
    if (loaded.moreFiles > 0) parts.push(`(and ${loaded.moreFiles} more not listed)`);
  }
  return parts.join("\n");
}

/** The folder's files, SKILL.md aside, breadth first; links are listed, never followed. */
async function listFiles(folder: string, guard: PathGuard): Promise<{ files: string[]; more: number }> {
  const files: string[] = [];
  let more = 0;
  const queue: { dir: string; depth: number }[] = [{ dir: folder, depth: 0 }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    let entries;
    try {
      entries = await readdir(next.dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(next.dir, entry.name);
      const rel = path.relative(folder, full).split(path.sep).join("/");
      if (rel === SKILL_FILE || entry.name === ".git" || entry.name === "node_modules") continue;
      if (entry.isDirectory()) {
        if (next.depth + 1 < MAX_DEPTH && !guard.isIgnored(`${full}/`)) queue.push({ dir: full, depth: next.depth + 1 });
        continue;
      }
      if (guard.isIgnored(full)) continue;
      if (files.length < MAX_LISTED_FILES) files.push(rel);
      else more++;
    }
  }
  return { files, more };
}
