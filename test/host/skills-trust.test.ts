/** The VS Code host's memory of which workspace folders' skills the person trusts. */
import { describe, expect, it } from "vitest";
import type { TrustMemento } from "../../src/host/vscode/remembered-trust";
import { KEEP_SKILLS_OFF, SkillsWorkspaceTrust, USE_SKILLS } from "../../src/host/vscode/skills-trust";

function memento(): TrustMemento & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: ((key: string) => data.get(key)) as TrustMemento["get"], update: async (key, value) => void data.set(key, value) };
}

const request = (folder: string, fingerprint: string) => ({ folder, skills: [{ name: "deploy", path: `${folder}/.claude/skills/deploy/SKILL.md` }], fingerprint });

describe("workspace skills trust", () => {
  it("asks naming each skill, remembers the answer per folder and fingerprint; a change asks again", async () => {
    const asked: string[] = [];
    let answer: string | undefined = USE_SKILLS;
    const trust = new SkillsWorkspaceTrust(memento(), async (message, detail) => (asked.push(`${message} | ${detail}`), answer));
    expect(await trust.decide(request("/ws", "a"))).toBe(true);
    expect(asked[0]).toContain("This workspace ships 1 skill (/ws). Offer it to the model?");
    expect(asked[0]).toContain("deploy: /ws/.claude/skills/deploy/SKILL.md");
    expect(await trust.decide(request("/ws", "a"))).toBe(true);
    expect(asked).toHaveLength(1);
    answer = KEEP_SKILLS_OFF;
    expect(await trust.decide(request("/ws", "b"))).toBe(false);
    expect(await trust.decide(request("/ws", "b"))).toBe(false);
    expect(asked).toHaveLength(2);
    trust.willAskAgain();
    answer = USE_SKILLS;
    expect(await trust.decide(request("/ws", "b"))).toBe(true);
    expect(asked).toHaveLength(3);
  });

  it("in Restricted Mode answers no without asking", async () => {
    const asked: string[] = [];
    const trust = new SkillsWorkspaceTrust(memento(), async (message) => (asked.push(message), USE_SKILLS), () => false);
    expect(await trust.decide(request("/ws", "a"))).toBe(false);
    expect(asked).toEqual([]);
  });
});
