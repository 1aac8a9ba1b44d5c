/**
 * Judging a command in-process, exactly as the executor does before it would run it:
 * `decideApproval` with the settings the CLI builds from `--yolo` and `--auto-approve`.
 */
import { parseAutoApprove } from "../../../src/cli/auto-approve";
import { IgnoreController } from "../../../src/core/ignore/ignore-controller";
import { evaluateCommand } from "../../../src/core/permissions";
import { decideApproval } from "../../../src/core/task/auto-approval";
import { DEFAULT_AGENT_SETTINGS, DEFAULT_AUTO_APPROVAL, type AgentSettings } from "../../../src/shared/settings";
import type { Mode, Outcome } from "./types";

export interface Judged {
  readonly outcome: Outcome;
  /** The guard's reason or note, for failure messages and the benign report. */
  readonly reason: string;
}

export function settingsFor(mode: Mode, commandAllowList: readonly string[] = []): AgentSettings {
  return {
    ...DEFAULT_AGENT_SETTINGS,
    yolo: mode.yolo === true,
    autoApproval: { ...DEFAULT_AUTO_APPROVAL, ...parseAutoApprove(mode.approve ?? []) },
    commandAllowList: [...commandAllowList],
  };
}

export class CommandJudge {
  private constructor(
    private readonly cwd: string,
    private readonly ignore: IgnoreController,
  ) {}

  /** A judge for commands run in `cwd`, with that workspace's ignore files. */
  static async create(cwd: string): Promise<CommandJudge> {
    return new CommandJudge(cwd, await IgnoreController.create(cwd));
  }

  async judge(command: string, mode: Mode, commandAllowList: readonly string[] = []): Promise<Judged> {
    const verdict = await decideApproval(
      { category: "command", command, message: { tool: "execute_command", content: command } },
      settingsFor(mode, commandAllowList),
      { roots: [this.cwd], ignore: this.ignore },
    );
    if (verdict.verdict === "deny") return { outcome: "refused", reason: verdict.reason };
    // The verdict carries no reason for a plain "ask": the policy's own says why.
    if (verdict.verdict === "ask") return { outcome: "asked", reason: verdict.note ?? this.policyReason(command, commandAllowList) };
    return { outcome: "allowed", reason: "" };
  }

  private policyReason(command: string, allowList: readonly string[]): string {
    return evaluateCommand(command, { workspaceRoot: this.cwd, ...(allowList.length > 0 ? { allowList: [...allowList] } : {}) }).reason;
  }

  dispose(): void {
    this.ignore.dispose();
  }
}
