/**
 * Notifications: when a question waits for the person or the task ended, the task says so in words
 * (attention.ts decides, notice-text.ts words it) to the Controller, whose hosts show it their way
 * (VS Code while its window is not focused, the CLI's bell and --notify), and to the Notification
 * hooks (lent by the hooks participant), which run whether or not anyone is looking, as Cline's do.
 */
import type { AskMessage } from "../../../shared/messages";
import type { Notice } from "../../../shared/notice";
import type { TaskParticipant } from "../../task/participant";
import type { TaskOutcome } from "../../task/round-outcome";
import type { TaskScope } from "../../task/task-scope";
import { TaskAttention } from "./attention";

export class Notifications implements TaskParticipant {
  readonly name = "notifications";
  private readonly attention: TaskAttention;

  constructor(
    private readonly scope: TaskScope,
    private readonly tell: (notice: Notice) => void,
  ) {
    this.attention = new TaskAttention(scope.taskId);
  }

  async beginning(): Promise<undefined> {
    this.attention.workBegan();
    return undefined;
  }

  questionShown(row: AskMessage): void {
    this.send(this.attention.question(row, this.scope.messages.chatMessages));
  }

  ended(outcome: TaskOutcome): void {
    const handedOff = this.scope.state.taskEnd?.kind === "handed_off";
    this.send(this.attention.ended(outcome, this.scope.messages.chatMessages, handedOff));
  }

  private send(notice: Notice | undefined): void {
    if (!notice) return;
    this.tell(notice);
    this.scope.participants.lent.notificationHook?.(notice);
  }
}
