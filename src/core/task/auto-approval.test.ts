import { describe, expect, it } from "vitest";
import { DEFAULT_AGENT_SETTINGS, DEFAULT_AUTO_APPROVAL, DEFAULT_SANDBOX_SETTINGS, type AgentSettings } from "../../shared/settings";
import { decideApproval } from "./auto-approval";
import type { ApprovalRequest } from "./tools/types";

const workspace = { roots: ["/ws"], ignore: { isIgnored: () => false } };
const settings = (overrides: Partial<AgentSettings>, allowedDomains: string[] = []): AgentSettings => ({ ...DEFAULT_AGENT_SETTINGS, sandbox: { ...DEFAULT_SANDBOX_SETTINGS, allowedDomains }, ...overrides });
const fetchOf = (url: string, local: boolean): ApprovalRequest => ({
  category: "browser",
  message: { tool: "web_fetch", content: url },
  ...(local ? { localHost: { url, note: "It fetches an address on this machine or its private network." } } : {}),
});

describe("decideApproval for a fetch of this machine or its network", () => {
  it("asks even in YOLO or with the browser switch on, saying why, and no switch can skip it", async () => {
    for (const overrides of [{ yolo: true }, { autoApproval: { ...DEFAULT_AUTO_APPROVAL, useBrowser: true } }]) {
      expect(await decideApproval(fetchOf("http://127.0.0.1:3000/", true), settings(overrides), workspace)).toEqual({
        verdict: "ask",
        note: "It fetches an address on this machine or its private network.",
        always: true,
      });
    }
    expect(await decideApproval(fetchOf("https://example.com/", false), settings({ yolo: true }), workspace)).toEqual({ verdict: "auto" });
  });

  it("runs as any fetch once the person lists the host: by name or address, with its port or without, or under a *. domain", async () => {
    const cases: [string, string][] = [
      ["http://127.0.0.1:3000/", "127.0.0.1"],
      ["http://127.0.0.1:3000/", "127.0.0.1:3000"],
      ["http://[::1]:8080/", "::1"],
      ["http://api.dev.localhost/", "*.localhost"],
      ["https://intranet.corp/", "intranet.corp:443"],
    ];
    for (const [url, listed] of cases) expect(await decideApproval(fetchOf(url, true), settings({ yolo: true }, [listed]), workspace), `${url} ${listed}`).toEqual({ verdict: "auto" });
    // Another port, another host: still the person's.
    expect((await decideApproval(fetchOf("http://127.0.0.1:4000/", true), settings({ yolo: true }, ["127.0.0.1:3000"]), workspace)).verdict).toBe("ask");
    expect((await decideApproval(fetchOf("http://127.0.0.2/", true), settings({ yolo: true }, ["127.0.0.1"]), workspace)).verdict).toBe("ask");
    // Listed but not YOLO and the switch off: asks as any fetch does, without the always-note.
    expect(await decideApproval(fetchOf("http://127.0.0.1:3000/", true), settings({}, ["127.0.0.1"]), workspace)).toEqual({ verdict: "ask" });
  });
});
