/** Reading Cline-format files: every problem names the file, line, column, server and field. */
import { describe, expect, it } from "vitest";
import { parseMcpConfig } from "../../src/core/mcp";

const FILE = "/home/me/.tandem/tandem_mcp_settings.json";

function problems(text: string): string[] {
  const result = parseMcpConfig(text, FILE);
  return result.ok ? [] : result.problems.map((p) => p.message);
}

describe("parseMcpConfig", () => {
  it("reads Cline's format, with defaults", () => {
    const result = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          local: { command: "npx", args: ["-y", "server"], env: { KEY: "v" }, autoApprove: ["read"], timeout: 30 },
          remote: { type: "sse", url: "https://example.com/sse", headers: { Authorization: "Bearer x" }, disabled: true },
          http: { url: "https://example.com/mcp" },
        },
      }),
      FILE,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.servers.get("local")).toMatchObject({ type: "stdio", command: "npx", args: ["-y", "server"], autoApprove: ["read"], timeoutSeconds: 30, disabled: false });
    expect(result.servers.get("remote")).toMatchObject({ type: "sse", disabled: true, timeoutSeconds: 60, headers: { Authorization: "Bearer x" } });
    expect(result.servers.get("http")).toMatchObject({ type: "streamableHttp", typeInferred: true });
  });

  it("names the line and column of a field with the wrong type", () => {
    const text = `{
  "mcpServers": {
    "db": {
      "command": "db-server",
      "args": ["--port", 5432],
      "timeout": "30"
    }
  }
}`;
    expect(problems(text)).toEqual([
      'tandem_mcp_settings.json line 5 column 15: server "db": "args" must be a list of strings',
      'tandem_mcp_settings.json line 6 column 18: server "db": "timeout" must be a number of seconds (1 to 3600)',
    ]);
  });

  it("names the line of a JSON syntax error", () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}';
    expect(problems(text)).toEqual([`tandem_mcp_settings.json line 4 column 5: invalid JSON: expected ',' or '}' after the value of "a", found '"'`]);
    expect(problems('{"mcpServers": {"a": {"command": "x",}}}')[0]).toMatch(/line 1 column 38: invalid JSON: expected a property name in double quotes, found .}./);
    expect(problems('{"mcpServers": {"a": {"command": "x')[0]).toMatch(/line 1 column 34: invalid JSON: a string is not closed/);
  });

  it("explains entries that cannot start", () => {
    expect(problems('{"mcpServers": {"a": {}}}')).toEqual(['tandem_mcp_settings.json line 1 column 22: server "a": needs "command" (a local server) or "url" (a remote one)']);
    expect(problems('{"mcpServers": {"a": {"type": "sse"}}}')[0]).toContain('a sse server needs "url"');
    expect(problems('{"mcpServers": {"a": {"url": "ftp://x"}}}')[0]).toContain('"url" must be an http:// or https:// URL');
    expect(problems('{"mcpServers": {"a": {"type": "websocket", "url": "http://x"}}}')[0]).toContain('"type" must be "stdio", "sse" or "streamableHttp"');
    expect(problems('{"mcpServers": {"a": {"command": "x", "url": "http://x"}}}')[0]).toContain('"url" is not used by a stdio server');
    expect(problems('{"mcpServers": []}')[0]).toContain('"mcpServers" must be an object');
  });

  it("warns about unknown fields without rejecting the file; an empty file has no servers", () => {
    const result = parseMcpConfig('{"mcpServers": {"a": {"command": "x", "alwaysAllow": []}}}', FILE);
    expect(result.ok && result.warnings.map((w) => w.message)).toEqual(['tandem_mcp_settings.json line 1 column 54: server "a": unknown field "alwaysAllow" is ignored']);
    expect(parseMcpConfig("  \n", FILE)).toMatchObject({ ok: true, servers: new Map() });
  });
});
