/**
 * The scripted model server as its own process, for tests that run the agent out of process:
 *
 *   node --import tsx test/support/serve.ts [--port N] [--host H] [--script file.json]
 *
 * Prints `scripted-model-server listening on <url>` once ready; more turns can be appended with
 * POST /__script and the recorded requests read with GET /__requests. Stops on SIGINT/SIGTERM.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parseScript } from "./parse-script.js";
import type { ScriptTurn } from "./script.js";
import { startScriptedModelServer } from "./scripted-model-server.js";

async function readScript(file: string): Promise<ScriptTurn[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read script ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`script ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return parseScript(json, file);
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be 0..65535, got ${value}`);
  return port;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: "string" }, host: { type: "string" }, script: { type: "string" } },
    strict: true,
  });
  const turns = values.script === undefined ? [] : await readScript(values.script);
  const server = await startScriptedModelServer({ turns, port: parsePort(values.port), host: values.host });
  process.stdout.write(`scripted-model-server listening on ${server.url}\n`);
  const stop = (): void => {
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("scripted-model-server: close failed:", error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(`scripted-model-server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
