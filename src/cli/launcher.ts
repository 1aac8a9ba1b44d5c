#!/usr/bin/env node
/**
 * The `tandem` command (dist/cli.js). It reads and checks the command line itself and answers
 * what needs no agent (--help, --version, a mistake in the arguments, `tandem models`), so those
 * cost little more than Node's own start. `tandem checkpoints` loads only its own small bundle
 * (cli-checkpoints.js, checkpoints-command.ts), and so do `--list-tasks` and `tandem export`
 * (cli-history.js, history-command.ts). Anything else is the agent's: its bundle beside this one
 * (cli-main.js, 3.5 MB) is compiled then, with the V8 code cache the build made of it
 * (cli-main.js.cache, core/util/cached-bundle.ts), and given the checked options.
 */
import { realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { resolveConfiguration } from "../api/config";
import { tandemDataFolder } from "../core/storage/paths";
import { compileBundle, readIfThere, type CompiledBundle } from "../core/util/cached-bundle";
import { errorText } from "../core/util/error-text";
import { parseCliArgs, USAGE, VERSION, type CliOptions } from "./args";
import { EXIT } from "./exit-codes";
import type * as Agent from "./main";
import type * as Checkpoints from "./checkpoints-command";
import type * as History from "./history-command";
import { modelListCache, runModelsCommand } from "./models-command";

export const CLI_BUNDLE = "cli-main.js";
export const CLI_CODE_CACHE = `${CLI_BUNDLE}.cache`;
export const CHECKPOINTS_BUNDLE = "cli-checkpoints.js";
export const HISTORY_BUNDLE = "cli-history.js";

/** The agent's bundle in `dir`, compiled with its code cache when there is one. */
export function compileCli(dir: string): CompiledBundle {
  return compileBundle(join(dir, CLI_BUNDLE), readIfThere(join(dir, CLI_CODE_CACHE)));
}

/** A problem with what the person asked for: reported with exit code 64, without the whole help. */
class UsageError extends Error {}

const note = (text: string) => process.stderr.write(`${text}\n`);

async function main(): Promise<number> {
  let cli: CliOptions;
  try {
    const options = parseCliArgs(process.argv.slice(2), process.env);
    if (options === "help" || options === "version") {
      process.stdout.write(`${options === "help" ? USAGE : VERSION}\n`);
      return EXIT.completed;
    }
    cli = { ...options, cwd: await workspaceFolder(options.cwd, "--cwd"), roots: await Promise.all(options.roots.map((root) => workspaceFolder(root, "--root"))) };
    // Settings that cannot make a client (no project, no model, a bad URL) are the person's to fix: say so before anything runs.
    if (cli.action.kind === "new" || cli.action.kind === "resume") resolveConfiguration(cli.api);
    if (cli.mcp.kind === "on" && cli.mcp.configFile) await mcpConfigFile(cli.mcp.configFile);
  } catch (error) {
    const usage = error instanceof UsageError ? "" : `\n\n${USAGE}`;
    note(`tandem: ${errorText(error)}${usage}`);
    return EXIT.usage;
  }
  if (cli.action.kind === "models") return models(cli, cli.action.refresh);
  if (cli.action.kind === "checkpoints_list" || cli.action.kind === "checkpoints_restore") {
    // Small enough that V8 compiles it faster than it would read a code cache.
    const command = compileBundle(join(__dirname, CHECKPOINTS_BUNDLE), undefined).load() as typeof Checkpoints;
    return command.runCheckpointsCli(cli.action, cli);
  }
  if (cli.action.kind === "list" || cli.action.kind === "export") {
    const command = compileBundle(join(__dirname, HISTORY_BUNDLE), undefined).load() as typeof History;
    return command.runHistoryCli(cli.action, cli);
  }
  const agent = compileCli(__dirname).load() as typeof Agent;
  return agent.runCli(cli);
}

/** `tandem models`: the catalogue or a server's list, no agent needed. */
async function models(cli: CliOptions, refresh: boolean): Promise<number> {
  try {
    const print = (text: string) => process.stdout.write(`${text}\n`);
    await runModelsCommand(cli.api, { refresh, json: cli.json }, { cache: modelListCache(tandemDataFolder(process.env)), print, note });
    return EXIT.completed;
  } catch (error) {
    note(`tandem: ${errorText(error)}`);
    return EXIT.failed;
  }
}

/** The resolved, real path of a workspace folder; a missing folder is the person's mistake. */
async function workspaceFolder(path: string, flag: "--cwd" | "--root"): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new UsageError(`${flag} ${path}: no such folder.`);
  if (!info.isDirectory()) throw new UsageError(`${flag} ${path}: not a folder.`);
  return realpath(path);
}

/** A --mcp-config the person named must be there (a missing default file only means no servers). */
async function mcpConfigFile(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) throw new UsageError(`--mcp-config ${path}: no such file.`);
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`tandem: ${String(error)}\n`);
      process.exit(EXIT.failed);
    },
  );
}
