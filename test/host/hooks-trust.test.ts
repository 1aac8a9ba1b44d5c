/** The VS Code host's memory of which workspace folders' hooks the person trusts. */
import { describe, expect, it } from "vitest";
import { HooksWorkspaceTrust, KEEP_HOOKS_OFF, RUN_HOOKS, type HookTrustMemento } from "../../src/host/vscode/hooks-trust";

function memento(): HookTrustMemento & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: ((key: string) => data.get(key)) as HookTrustMemento["get"], update: async (key, value) => void data.set(key, value) };
}

const request = (folder: string, fingerprint: string) => ({ folder, hooks: [{ point: "PreToolUse" as const, path: `${folder}/.tandem/hooks/PreToolUse` }], fingerprint });

describe("workspace hooks trust", () => {
  it("asks naming each hook, remembers the answer per folder and fingerprint; a change asks again", async () => {
    const asked: string[] = [];
    let answer: string | undefined = RUN_HOOKS;
    const trust = new HooksWorkspaceTrust(memento(), async (message, detail) => (asked.push(`${message} | ${detail}`), answer));
    expect(await trust.decide(request("/ws", "a"))).toBe(true);
    expect(asked[0]).toContain("This workspace ships 1 hook (/ws). Run it?");
    expect(asked[0]).toContain("PreToolUse: /ws/.tandem/hooks/PreToolUse");
    expect(await trust.decide(request("/ws", "a"))).toBe(true);
    expect(asked).toHaveLength(1);
    // Another folder is its own question; the first one's answer stays.
    answer = KEEP_HOOKS_OFF;
    expect(await trust.decide(request("/other", "b"))).toBe(false);
    expect(await trust.decide(request("/ws", "a"))).toBe(true);
    expect(asked).toHaveLength(2);
    // A changed hook (a new fingerprint) asks again; "Keep them off" is remembered until the command asks anew.
    expect(await trust.decide(request("/ws", "a2"))).toBe(false);
    expect(await trust.decide(request("/ws", "a2"))).toBe(false);
    expect(asked).toHaveLength(3);
    trust.willAskAgain();
    answer = RUN_HOOKS;
    expect(await trust.decide(request("/ws", "a2"))).toBe(true);
    expect(asked).toHaveLength(4);
  });

  it("in Restricted Mode answers no without asking or remembering; trusted again, it asks", async () => {
    const asked: string[] = [];
    const store = memento();
    let trustedWindow = false;
    const trust = new HooksWorkspaceTrust(store, async (message) => (asked.push(message), RUN_HOOKS), () => trustedWindow);
    expect(await trust.decide(request("/ws", "a"))).toBe(false);
    expect([asked, [...store.data.keys()]]).toEqual([[], []]);
    trustedWindow = true;
    expect(await trust.decide(request("/ws", "a"))).toBe(true);
    expect(asked).toHaveLength(1);
  });

  it("decides nothing when the modal is dismissed", async () => {
    const store = memento();
    const trust = new HooksWorkspaceTrust(store, async () => undefined);
    expect(await trust.decide(request("/ws", "a"))).toBe(false);
    expect(store.data.size).toBe(0);
  });
});
