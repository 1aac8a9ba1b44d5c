/**
 * The skills' part of the system prompt: each skill's name and description, nothing more (the
 * body is loaded on demand by use_skill). Each entry stays within ENTRY_TOKEN_LIMIT by the
 * project's own estimate (context-window.ts's four characters a token), a long description cut
 * with an ellipsis, so a repository with many skills cannot crowd the prompt. The text depends
 * only on the list, so the same list gives a byte-identical section.
 */
import { estimateTokens } from "../context/context-window";
import type { Skill } from "./discovery";

export const ENTRY_TOKEN_LIMIT = 50;

/** What counts as one entry's tokens: the line as it goes to the model. */
export function entryTokens(entry: string): number {
  return estimateTokens([{ role: "user", content: entry }]);
}

/** `- name: description`, the description cut (at a word where one is near) to fit the limit. */
export function skillEntry(skill: Pick<Skill, "name" | "description">): string {
  const whole = `- ${skill.name}: ${skill.description}`;
  if (entryTokens(whole) <= ENTRY_TOKEN_LIMIT) return whole;
  const chars = [...skill.description];
  let low = 0;
  let high = chars.length;
  // The longest cut that fits (the estimate grows with the length).
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (entryTokens(`- ${skill.name}: ${chars.slice(0, mid).join("").trimEnd()}…`) <= ENTRY_TOKEN_LIMIT) low = mid;
    else high = mid - 1;
  }
  let cut = chars.slice(0, low).join("");
  const space = cut.lastIndexOf(" ");
  if (space > cut.length * 0.7) cut = cut.slice(0, space);
  return `- ${skill.name}: ${cut.trimEnd()}…`;
}

/** The section, or undefined when there is no skill to offer. */
export function skillsSection(skills: readonly Pick<Skill, "name" | "description">[]): string | undefined {
  if (skills.length === 0) return undefined;
  return [
    "SKILLS",
    "",
    "Skills are instructions (and files) for particular kinds of work, set up by the person or the workspace. " +
      "Only their names and descriptions are here. When a task matches a skill's description, call use_skill with its name " +
      "before you start that work, then follow what it returns.",
    "",
    ...skills.map(skillEntry),
  ].join("\n");
}
