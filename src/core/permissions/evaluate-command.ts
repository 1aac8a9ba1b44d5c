/**
 * Tandem's command permission policy. Unlike Cline, which lets the model declare whether a command
 * needs approval, the policy reads the command line itself with a real shell parser:
 * "deny" for the built-in deny list (even in YOLO), "allow" only for read-only allow-listed
 * commands, "ask" for everything else. The model's own `requires_approval` can only tighten this.
 * Synchronous: the parser (mvdan-sh) is synchronous.
 */
import * as os from "node:os";
import * as path from "node:path";
import { parseAllowList } from "./allow-rules";
import { DEFAULT_COMMAND_POLICY, type CommandDecision, type CommandPolicy } from "./command-policy";
import { findDenial } from "./deny-rules";
import { parseShell } from "./parse-shell";
import { whyNotSafe } from "./safe-script";

export function evaluateCommand(command: string, policy: Partial<CommandPolicy> = {}): CommandDecision {
  if (typeof command !== "string") throw new TypeError(`evaluateCommand needs the command line as a string, got ${typeof command}`);
  const allowList = policy.allowList ?? DEFAULT_COMMAND_POLICY.allowList;
  if (!Array.isArray(allowList)) throw new TypeError("policy.allowList must be an array of strings");
  const rules = parseAllowList(allowList);
  const denyGuard = policy.denyGuard ?? DEFAULT_COMMAND_POLICY.denyGuard;
  if (typeof denyGuard !== "boolean") throw new TypeError("policy.denyGuard must be true or false");
  const workspaceRoot = policy.workspaceRoot === undefined ? null : absolute("workspaceRoot", policy.workspaceRoot);
  const home = absolute("homeDir", policy.homeDir ?? os.homedir());

  const parsed = parseShell(command);
  if (!parsed.ok) return { decision: "ask", reason: `could not parse the command: ${parsed.error}`, commands: [] };
  const { script } = parsed;
  const commands = script.commands.map((c) => c.text);
  if (denyGuard) {
    const denial = findDenial(script, { home, workspaceRoot, startCwd: workspaceRoot, depth: 0 });
    if (denial !== null) return { decision: "deny", reason: denial, commands };
  }
  const notSafe = whyNotSafe(script, rules);
  if (notSafe !== null) return { decision: "ask", reason: notSafe, commands };
  return { decision: "allow", reason: "every command is a read-only command on the allow-list", commands };
}

/** The model's `requires_approval="true"` turns "allow" into "ask"; it never loosens a decision. */
export function applyModelRequest(decision: CommandDecision, requiresApproval: boolean): CommandDecision {
  if (typeof requiresApproval !== "boolean") throw new TypeError("requiresApproval must be true or false");
  if (!requiresApproval || decision.decision !== "allow") return decision;
  return { ...decision, decision: "ask", reason: `the model asked for approval (${decision.reason})` };
}

function absolute(name: string, value: string): string {
  if (typeof value !== "string" || !path.isAbsolute(value)) throw new Error(`policy.${name} must be an absolute path, got ${JSON.stringify(value)}`);
  return value;
}
