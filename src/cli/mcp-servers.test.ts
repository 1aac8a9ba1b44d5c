import { describe, expect, it } from "vitest";
import { defaultMcpConfigFile } from "./mcp-servers";

describe("defaultMcpConfigFile", () => {
  it("is global, in the CLI's data folder: XDG_DATA_HOME, else ~/.local/share", () => {
    expect(defaultMcpConfigFile({ XDG_DATA_HOME: "/x", HOME: "/home/me" })).toBe("/x/tandem/tandem_mcp_settings.json");
    expect(defaultMcpConfigFile({ HOME: "/home/me" })).toBe("/home/me/.local/share/tandem/tandem_mcp_settings.json");
  });
});
