/**
 * Runs a stdio MCP server configured with `"sandbox": true` inside the command sandbox tasks use:
 * writable only in the workspace folders and a temp folder of its own, HOME's credential stores
 * and the workspace's ignored and secret files unreadable, the network as the sandbox settings
 * allow. The hub's transport then spawns the sandbox's launcher line, still in its own process
 * group with the lifeline, so the confined server dies with the hub like any other.
 *
 * The sandbox's launcher drops credential-named variables (`*_TOKEN`, `*_API_KEY`, …) before the
 * sandbox starts, which would take the person's explicit `env` too. So each variable also travels
 * in a carrier (`TANDEM_MCP_ENV_<n>=NAME=value`, a name the launcher keeps) and is exported again
 * inside. The values stay in the environment: never on a command line (which `ps` shows every
 * user) nor in the launcher file.
 */
import { rmSync } from "node:fs";
import * as path from "node:path";
import type { ConfinedLaunch, McpServerSandbox } from "../mcp/server-sandbox";
import type { StdioLaunch } from "../mcp/stdio-transport";
import type { SandboxStatus } from "../../shared/sandbox-status";
import { IgnoreController } from "../ignore/ignore-controller";
import type { CommandSandbox, SandboxedLine } from "./command-sandbox";
import { shellQuote } from "./shell-quote";
import { scanWorkspace, type WorkspaceFindings } from "./workspace-scan";

const CARRIER = "TANDEM_MCP_ENV_";
/** Names a POSIX shell can export; others pass the launcher as they are (it only drops valid names). */
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class McpServerConfiner implements McpServerSandbox {
  constructor(private readonly sandbox: CommandSandbox) {}

  async confine(launch: StdioLaunch, roots: readonly string[], signal?: AbortSignal): Promise<ConfinedLaunch> {
    const status = await this.sandbox.ready();
    if (!status.active) throw new Error(inactiveReason(status));
    const findings = await findingsOf(roots);
    const tempDir = this.sandbox.makeTaskTemp();
    const cwd = launch.cwd ? path.resolve(launch.cwd) : (roots[0] ?? tempDir);
    const carried = Object.entries(launch.env).filter(([name]) => SHELL_NAME.test(name));
    let line: SandboxedLine;
    try {
      line = await this.sandbox.wrap(serverLine(launch, carried.length), { cwd, roots, tempDir, ...findings }, signal);
    } catch (error) {
      rmSync(tempDir, { recursive: true, force: true });
      throw error;
    }
    const carriers = Object.fromEntries(carried.map(([name, value], i) => [`${CARRIER}${i}`, `${name}=${value}`]));
    let released = false;
    return {
      launch: { command: "/bin/sh", args: ["-c", line.line], env: { ...launch.env, ...carriers }, cwd },
      release: () => {
        if (released) return;
        released = true;
        line.release();
        rmSync(tempDir, { recursive: true, force: true });
      },
    };
  }
}

/** Inside the sandbox: the carried variables exported again, then the server in the shell's place. */
function serverLine(launch: StdioLaunch, carriers: number): string {
  const names = Array.from({ length: carriers }, (_, i) => `${CARRIER}${i}`);
  const restore = names.length > 0 ? `export ${names.map((n) => `"$${n}"`).join(" ")}; unset ${names.join(" ")}; ` : "";
  return `${restore}exec ${[launch.command, ...launch.args].map(shellQuote).join(" ")}`;
}

/** What a task's sandbox hides in the workspace, found with the ignore rules of each folder (secret files hidden: the stricter default). */
async function findingsOf(roots: readonly string[]): Promise<Pick<WorkspaceFindings, "hiddenReads" | "readOnly">> {
  const hiddenReads: string[] = [];
  const readOnly: string[] = [];
  for (const root of roots) {
    const guard = new IgnoreController(root);
    try {
      await guard.reload();
      const found = await scanWorkspace([root], guard);
      hiddenReads.push(...found.hiddenReads);
      readOnly.push(...found.readOnly);
    } finally {
      guard.dispose();
    }
  }
  return { hiddenReads, readOnly };
}

function inactiveReason(status: SandboxStatus): string {
  if (status.mode === "off") return `Tandem's command sandbox is switched off (its mode is "off")`;
  return status.reason ?? "the command sandbox is not available on this machine";
}
