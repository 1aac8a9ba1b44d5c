/**
 * Whether a workspace folder's skills may be offered. They are instructions a repository ships,
 * followed as the person's own, so they follow the hooks' rule (hooks/trust.ts): the host asks once
 * per folder and remembers (the editor in workspace state, the CLI by `--trust-workspace`), and
 * what is trusted is a fingerprint of the skills' names, paths and SKILL.md contents, so a skill
 * added or changed (by the model, say) is a new question. Global skills are the person's own.
 */
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { SKILL_BODY_LIMIT_BYTES } from "./load";
import type { Skill } from "./discovery";

export interface SkillTrustRequest {
  /** The workspace folder whose skills these are. */
  readonly folder: string;
  readonly skills: readonly { readonly name: string; readonly path: string }[];
  /** Changes with any skill's name, path or SKILL.md content. */
  readonly fingerprint: string;
}

/** The host's question (and memory); a rejection or a throw counts as "not trusted". */
export type TrustWorkspaceSkills = (request: SkillTrustRequest) => boolean | Promise<boolean>;

export async function skillTrustRequest(folder: string, skills: readonly Skill[]): Promise<SkillTrustRequest> {
  const hash = createHash("sha256");
  for (const skill of skills) hash.update(`${skill.name}\0${skill.file}\0${await contentHash(skill.file)}\n`);
  return { folder, skills: skills.map((s) => ({ name: s.name, path: s.file })), fingerprint: hash.digest("hex") };
}

/** The part use_skill can return (a longer file changes its size, which is hashed too). */
async function contentHash(file: string): Promise<string> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, SKILL_BODY_LIMIT_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return `${size}:${createHash("sha256").update(buffer.subarray(0, bytesRead)).digest("hex")}`;
  } finally {
    await handle.close();
  }
}
