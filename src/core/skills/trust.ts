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
import { findSkills, type Skill } from "./discovery";
import { TrustDecisions } from "../util/trust-decisions";

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

/**
 * Trust given up front (the CLI's `--trust-workspace`): to each skill as the run finds it, by path,
 * name and content. A skill added or changed later (by the model, say) is not trusted, nor is its
 * folder's set while it holds one.
 */
export async function trustSkillsAsFound(roots: readonly string[]): Promise<TrustWorkspaceSkills> {
  const found: Skill[] = [];
  // Every workspace skill, the guard aside: a skill the task's guard leaves out is simply not asked about.
  await findSkills({ roots, guard: { isIgnored: () => false }, workspaceTrusted: (_folder, skills) => (found.push(...skills), Promise.resolve(true)) });
  const known = new Map<string, string>();
  for (const skill of found) known.set(skill.file, `${skill.name}\0${await contentHash(skill.file)}`);
  return async (request) => {
    for (const skill of request.skills) {
      const now = await contentHash(skill.path).catch(() => "");
      if (known.get(skill.path) !== `${skill.name}\0${now}`) return false;
    }
    return true;
  };
}

/**
 * The Controller's memory of the host's answers, by fingerprint, for its life (the host remembers
 * across sessions): a dismissed question is not asked again at every task, as for hooks.
 */
export class SkillTrustMemory {
  private readonly decisions: TrustDecisions<SkillTrustRequest> | undefined;

  constructor(ask: TrustWorkspaceSkills | undefined) {
    this.decisions = ask ? new TrustDecisions(ask) : undefined;
  }

  /** The host's question, asked at most once per fingerprint; none when the host has no question. */
  get trustWorkspace(): TrustWorkspaceSkills | undefined {
    return this.decisions?.decide;
  }

  /** The person asked to be asked again (after saying no, or dismissing the question). */
  askAgain(): void {
    this.decisions?.forget();
  }
}
