/**
 * What MCP costs the model and the person, against baselines measured in the same run:
 * - the system prompt's MCP section for server-everything's tools, per tool, against a
 *   Cline-shaped listing of the same tools (name, description, and the input schema as JSON);
 *   target: at most half;
 * - connecting ten stdio servers at once against the same ten connected one after another
 *   (medians of RUNS; one alone printed for scale); target: at most 0.75x — the hub starts them in
 *   parallel, and a server's start is mostly CPU (Node loading it), so the floor is 1/cores.
 * `RUNS=1 npm run bench mcp` for a shorter run.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import * as path from "node:path";
import { McpHub, describeServersForPrompt, describeTool, type McpServerSnapshot } from "../src/core/mcp";

const RUNS = Number(process.env.RUNS ?? 3);
const TARGET_PROMPT_RATIO = 0.5;
const TARGET_PARALLEL_RATIO = 0.75;
const require = createRequire(__filename);
const EVERYTHING = path.join(path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist", "index.js");

export async function run(): Promise<void> {
  await promptSize();
  await connectTimes();
}

async function promptSize(): Promise<void> {
  const { servers } = await withServers(1, async (hub) => hub.servers());
  const everything = servers[0] as McpServerSnapshot;
  const section = describeServersForPrompt(servers);
  const tools = everything.tools;
  const ours = tools.reduce((n, tool) => n + describeTool(tool).length + 1, 0);
  // Cline's listing gives each tool its name, its description and its schema as indented JSON.
  const clineShaped = tools.reduce((n, tool) => n + `- ${tool.name}: ${tool.description ?? ""}\n    Input Schema:\n    ${JSON.stringify(tool.inputSchema, null, 2).replace(/\n/g, "\n    ")}\n`.length, 0);
  const ratio = ours / clineShaped;
  console.log(`MCP prompt, server-everything: ${tools.length} tools, ${everything.resources.length} resources, ${everything.resourceTemplates.length} templates`);
  console.log(`  whole section: ${section.length} chars (~${Math.round(section.length / 4)} tokens)`);
  console.log(`  per tool: ${(ours / tools.length).toFixed(0)} chars (~${(ours / tools.length / 4).toFixed(0)} tokens); Cline-shaped: ${(clineShaped / tools.length).toFixed(0)} chars`);
  console.log(`  ${ratio <= TARGET_PROMPT_RATIO ? "PASS" : "MISS"} tools' lines ${ratio.toFixed(2)}x the Cline-shaped listing (target <= ${TARGET_PROMPT_RATIO}x)`);
}

async function connectTimes(): Promise<void> {
  const one: number[] = [];
  const ten: number[] = [];
  const tenInTurn: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    ten.push((await withServers(10, async () => undefined)).ms);
    const each: number[] = [];
    for (let j = 0; j < 10; j++) each.push((await withServers(1, async () => undefined)).ms);
    tenInTurn.push(each.reduce((a, b) => a + b, 0));
    one.push(median(each));
  }
  const ratio = median(ten) / median(tenInTurn);
  console.log(
    `MCP connect (stdio server-everything, ${availableParallelism()} cores, median of ${RUNS}): 10 at once ${median(ten).toFixed(0)} ms; 10 one after another ${median(tenInTurn).toFixed(0)} ms; 1 alone ${median(one).toFixed(0)} ms`,
  );
  console.log(`  ${ratio <= TARGET_PARALLEL_RATIO ? "PASS" : "MISS"} at once ${ratio.toFixed(2)}x one after another (target <= ${TARGET_PARALLEL_RATIO}x)`);
}

/** Starts a hub with `count` server-everything processes, waits until all connected, runs `use`. */
async function withServers<T>(count: number, use: (hub: McpHub) => Promise<T>): Promise<{ ms: number } & { servers: McpServerSnapshot[]; value: T }> {
  const folder = await mkdtemp(path.join(tmpdir(), "tandem-bench-mcp-"));
  const configFile = path.join(folder, "tandem_mcp_settings.json");
  const servers = Object.fromEntries(Array.from({ length: count }, (_, i) => [`everything-${i}`, { command: process.execPath, args: [EVERYTHING, "stdio"] }]));
  await writeFile(configFile, JSON.stringify({ mcpServers: servers }));
  const hub = new McpHub({ globalConfigFile: configFile, trustWorkspace: () => false, workspaceFolders: () => [folder], watch: false, connectTimeoutMs: 30_000 });
  try {
    const started = performance.now();
    await hub.start();
    const { stillConnecting } = await hub.waitForConnections(60_000);
    const ms = performance.now() - started;
    const failed = hub.servers().filter((s) => s.state !== "connected");
    if (stillConnecting.length > 0 || failed.length > 0) throw new Error(`not connected: ${failed.map((s) => `${s.name} ${s.state} ${s.error ?? ""}`).join("; ")}`);
    return { ms, servers: [...hub.servers()], value: await use(hub) };
  } finally {
    await hub.shutdown();
    await rm(folder, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
