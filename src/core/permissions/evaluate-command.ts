/**
 * Tandem's command permission policy. Unlike Cline, which lets the model declare whether a command
 * needs approval, the policy reads the command line itself with a real shell parser:
 * "deny" for the built-in deny list (even in YOLO), "allow" only for read-only allow-listed
 * commands that read inside the workspace, "ask" for everything else. In YOLO without a sandbox,
 * what the guard cannot read is refused too. The model's own `requires_approval` can only tighten
 * this. Synchronous: the parser (mvdan-sh) is synchronous.
 */
import * as os from "node:os";
import * as path from "node:path";
import { parseAllowList } from "./allow-rules";
import { findBlindSpot } from "./blind-spots";
import { commandFiles, NO_FILES } from "./command-files";
import { DEFAULT_COMMAND_POLICY, type CommandDecision, type CommandPolicy, type DecisionRule } from "./command-policy";
import { findDenial } from "./deny-rules";
import { readLineText } from "./line-text";
import { outsideRead } from "./outside-reads";
import { parseShell } from "./parse-shell";
import { isReadOnlyCommand, whyNotSafe } from "./safe-script";
import { LEXICAL_DISK } from "./workspace-paths";

export function evaluateCommand(command: string, policy: Partial<CommandPolicy> = {}): CommandDecision {
  if (typeof command !== "string") throw new TypeError(`evaluateCommand needs the command line as a string, got ${typeof command}`);
  const settings = readPolicy(policy);
  const { rules, denyGuard, workspaceRoot, otherRoots, home, disk } = settings;
  const line = readLineText(command, settings.interactive);
  // YOLO without a sandbox: nobody looks, so what the guard cannot read must not run.
  const refuseUnreadable = settings.yolo && !settings.sandboxed && denyGuard;
  const unreadable = (reason: string, hint: string, commands: string[], files = NO_FILES): CommandDecision => ({
    decision: "deny",
    rule: "unreadable",
    reason: `${reason}; in YOLO mode without a sandbox the guard refuses what it cannot read. To run it, ${hint}`,
    commands,
    files,
  });

  const parsed = parseShell(line.text);
  if (!parsed.ok) {
    const reason = `could not parse the command: ${parsed.error}`;
    if (refuseUnreadable) return unreadable(reason, "write it in plain bash syntax", []);
    return { decision: "ask", rule: "unparsed", reason, commands: [], files: NO_FILES };
  }
  const { script } = parsed;
  const commands = script.commands.map((c) => c.text);
  const ctx = { home, workspaceRoot, otherRoots, startCwd: workspaceRoot, depth: 0 };
  const files = commandFiles(script, ctx, (c) => isReadOnlyCommand(c, rules));
  const decide = (decision: CommandDecision["decision"], rule: DecisionRule, reason: string): CommandDecision => ({ decision, rule, reason, commands, files });
  if (denyGuard) {
    const denial = findDenial(script, ctx);
    if (denial !== null) return decide("deny", denial.rule, denial.reason);
  }
  if (line.hidden !== null) {
    if (refuseUnreadable) return unreadable(line.hidden, "write it without control characters, and quote `!` as '!'", commands, files);
    return decide("ask", "hidden-text", line.hidden);
  }
  const zshPossible = settings.shellName === null || settings.shellName.includes("zsh");
  if (refuseUnreadable) {
    const spot = findBlindSpot(script, { ...ctx, zshPossible, disk });
    if (spot !== null) return unreadable(spot.reason, spot.hint, commands, files);
  }
  const notSafe = whyNotSafe(script, rules, { zshPossible });
  if (notSafe !== null) return decide("ask", "not-read-only", notSafe);
  if (!settings.readOutside && workspaceRoot !== null) {
    const outside = outsideRead(script, { home, workspaceRoot, otherRoots, startCwd: workspaceRoot, disk });
    if (outside !== null) return decide("ask", "outside-workspace", `${outside} ("read files outside the workspace" is off)`);
  }
  return decide("allow", "read-only", "every command is a read-only command on the allow-list, reading inside the workspace");
}

/** The model's `requires_approval="true"` turns "allow" into "ask"; it never loosens a decision. */
export function applyModelRequest(decision: CommandDecision, requiresApproval: boolean): CommandDecision {
  if (typeof requiresApproval !== "boolean") throw new TypeError("requiresApproval must be true or false");
  if (!requiresApproval || decision.decision !== "allow") return decision;
  return { ...decision, decision: "ask", rule: "model-request", reason: `the model asked for approval (${decision.reason})` };
}

function readPolicy(policy: Partial<CommandPolicy>) {
  const allowList = policy.allowList ?? DEFAULT_COMMAND_POLICY.allowList;
  if (!Array.isArray(allowList)) throw new TypeError("policy.allowList must be an array of strings");
  const flag = (name: "denyGuard" | "yolo" | "sandboxed" | "readOutsideWorkspace" | "interactiveShell", fallback: boolean): boolean => {
    const value = policy[name] ?? fallback;
    if (typeof value !== "boolean") throw new TypeError(`policy.${name} must be true or false`);
    return value;
  };
  if (policy.shell !== undefined && typeof policy.shell !== "string") throw new TypeError("policy.shell must be a string (a path or a name)");
  return {
    rules: parseAllowList(allowList),
    denyGuard: flag("denyGuard", DEFAULT_COMMAND_POLICY.denyGuard),
    yolo: flag("yolo", false),
    sandboxed: flag("sandboxed", false),
    readOutside: flag("readOutsideWorkspace", false),
    interactive: flag("interactiveShell", true),
    shellName: policy.shell ? path.basename(policy.shell).toLowerCase() : null,
    workspaceRoot: policy.workspaceRoot === undefined ? null : absolute("workspaceRoot", policy.workspaceRoot),
    otherRoots: (policy.otherRoots ?? []).map((root) => absolute("otherRoots", root)),
    home: absolute("homeDir", policy.homeDir ?? os.homedir()),
    disk: policy.disk ?? LEXICAL_DISK,
  };
}

function absolute(name: string, value: string): string {
  if (typeof value !== "string" || !path.isAbsolute(value)) throw new Error(`policy.${name} must be an absolute path, got ${JSON.stringify(value)}`);
  return value;
}
