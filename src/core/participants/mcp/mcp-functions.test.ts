import { describe, expect, it } from "vitest";
import type { McpServerSnapshot, McpToolInfo } from "../../mcp/types";
import { mcpFunctions } from "./mcp-functions";

const tool = (name: string): McpToolInfo => ({ name, inputSchema: { type: "object", properties: {} }, autoApprove: false });
const server = (name: string, tools: string[], state: McpServerSnapshot["state"] = "connected"): McpServerSnapshot =>
  ({ name, source: "global", configFile: "f", state, type: "stdio", timeoutSeconds: 60, tools: tools.map(tool), resources: [], resourceTemplates: [], prompts: [] }) as McpServerSnapshot;

describe("mcpFunctions", () => {
  it("names each connected server's tools mcp__server__tool, in the providers' characters, and maps them back", () => {
    const fns = mcpFunctions([server("my.server", ["get sum", "echo"]), server("down", ["x"], "failed")]);
    expect(fns.specs.map((s) => s.name)).toEqual(["mcp__my_server__get_sum", "mcp__my_server__echo"]);
    expect(fns.resolve("mcp__my_server__get_sum")).toEqual({ server: "my.server", tool: "get sum" });
    expect(fns.resolve("mcp__down__x")).toBeUndefined();
  });

  it("keeps names unique and at most 64 characters", () => {
    const long = "t".repeat(80);
    const fns = mcpFunctions([server("a.b", ["c"]), server("a_b", ["c"]), server("s", [long, `${long}2`])], new Set(["mcp__s__taken"]));
    const names = fns.specs.map((s) => s.name);
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(fns.resolve(names[1] as string)).toEqual({ server: "a_b", tool: "c" });
    expect(fns.resolve(names[3] as string)).toEqual({ server: "s", tool: `${long}2` });
  });
});
