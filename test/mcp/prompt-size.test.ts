/**
 * What the MCP section adds to the system prompt, per tool, for server-everything's tools:
 * compact signatures against the JSON schemas they replace. Prints the figures.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeServersForPrompt, describeTool, type McpServerSnapshot } from "../../src/core/mcp";
import { serverScript, startHub, stdio, type TestHub } from "./support";

describe("describeServersForPrompt", () => {
  let t: TestHub;
  let everything: McpServerSnapshot;
  beforeAll(async () => {
    t = await startHub({ everything: stdio(serverScript("server-everything"), "stdio"), broken: { command: "tandem-no-such-command-xyz" } });
    await t.hub.waitForConnections();
    everything = t.hub.servers().find((s) => s.name === "everything") as McpServerSnapshot;
  });
  afterAll(() => t?.close());

  it("lists tools compactly, and says which servers failed or are connecting", () => {
    const section = describeServersForPrompt(t.hub.servers());
    expect(section).toContain("- get-sum(a: number, b: number) — Returns the sum of two numbers");
    expect(section).toContain('- get-structured-content(location: "New York"|"Chicago"|"Los Angeles")');
    expect(section).toContain("demo://resource/dynamic/text/{resourceId}");
    expect(section).toMatch(/Failed, not available: broken \(the server exited with code 127/);
    expect(describeServersForPrompt([{ ...everything, state: "connecting" }])).toContain("Still connecting (their tools are not available yet): everything.");

    const lines = everything.tools.map((tool) => ({ name: tool.name, chars: describeTool(tool).length + 1, schema: JSON.stringify(tool.inputSchema).length }));
    const toolChars = lines.reduce((n, l) => n + l.chars, 0);
    const schemaChars = lines.reduce((n, l) => n + l.schema, 0);
    const perTool = toolChars / lines.length;
    console.log(
      [
        `MCP prompt: server-everything, ${lines.length} tools, ${everything.resources.length} resources, ${everything.resourceTemplates.length} templates`,
        `  whole section ${section.length} chars (~${Math.round(section.length / 4)} tokens), of which tool lines ${toolChars} chars`,
        `  per tool: ${perTool.toFixed(0)} chars (~${(perTool / 4).toFixed(0)} tokens) on average; their JSON input schemas alone average ${(schemaChars / lines.length).toFixed(0)} chars`,
        ...lines.map((l) => `    ${l.name}: ${l.chars} chars (schema JSON ${l.schema})`),
      ].join("\n"),
    );
    expect(perTool).toBeLessThan(250);
  });
});
