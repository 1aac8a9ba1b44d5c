/**
 * The protocol's own client conformance suite (@modelcontextprotocol/conformance 0.1.12) against
 * Tandem's hub, through test/mcp/conformance-client.mts: every non-auth client scenario, in
 * parallel, each judged by the suite's checks.json. Auth scenarios run by hand:
 *   npx conformance client --command "node --import tsx test/mcp/conformance-client.mts" --suite auth
 */
import { execFile } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "node_modules", ".bin", "conformance");
const adapter = `${process.execPath} --import tsx ${path.join(import.meta.dirname, "conformance-client.mts")}`;

/*
 * The suite's test servers run on the SDK the suite was released with (package.json's overrides
 * give it 1.25.3): on the hub's 1.32.2 the tools_call server's second connect throws "Already
 * connected to a transport" and answers 500 to any client.
 */

interface Check {
  readonly id: string;
  readonly status: string;
  readonly description?: string;
  readonly details?: unknown;
}

async function scenario(name: string): Promise<{ checks: Check[]; output: string }> {
  const out = await mkdtemp(path.join(tmpdir(), "tandem-conformance-out-"));
  let output = "";
  try {
    const result = await run(bin, ["client", "--command", adapter, "--scenario", name, "-o", out, "--timeout", "60000"], { cwd: root, maxBuffer: 32 << 20 }).catch(
      (error: { stdout?: string; stderr?: string }) => error,
    );
    output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
    const [folder] = await readdir(out);
    const checks = JSON.parse(await readFile(path.join(out, folder as string, "checks.json"), "utf8")) as Check[];
    return { checks, output };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

describe("MCP client conformance (non-auth scenarios)", () => {
  it("initialize, tools_call, elicitation defaults and sse-retry", { timeout: 120_000 }, async () => {
    const names = ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"];
    const results = await Promise.all(names.map(async (name) => [name, await scenario(name)] as const));
    const summary: string[] = [];
    for (const [name, { checks, output }] of results) {
      const judged = checks.filter((c) => c.status === "SUCCESS" || c.status === "FAILURE" || c.status === "WARNING");
      const failed = judged.filter((c) => c.status !== "SUCCESS");
      const passed = judged.length - failed.length;
      summary.push(`${name}: ${passed}/${judged.length} checks passed`);
      expect(failed, `${name} failed:\n${output.slice(-3000)}`).toEqual([]);
      expect(passed).toBeGreaterThan(0);
    }
    console.log(`MCP conformance 0.1.12:\n  ${summary.join("\n  ")}`);
  });
});
