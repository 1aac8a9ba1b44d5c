/**
 * Remembers, per workspace, which task was running, so a window reload (which ends the extension
 * host, and the task with it) does not lose it: the next host reopens that task in the panel. The
 * session tells it which task runs (WebviewSessionDeps.runningTaskChanged).
 */
import type * as vscode from "vscode";
import { errorText } from "../../core/util/error-text";

const KEY = "tandem.interruptedTaskId";

export type TaskMemento = Pick<vscode.Memento, "get" | "update">;

export class InterruptedTaskMemory {
  private ending = false;

  constructor(
    private readonly state: TaskMemento,
    private readonly warn: (text: string) => void,
  ) {}

  /** The task running when the previous host ended, if any. */
  remembered(): string | undefined {
    const id = this.state.get<unknown>(KEY);
    return typeof id === "string" && id ? id : undefined;
  }

  /** A task started (remembered until it finishes or the chat is cleared), or none runs any more. Writes only on a change. */
  runningTaskChanged(taskId: string | undefined): void {
    if (!this.ending) this.write(taskId);
  }

  /**
   * The host is shutting down: ending the task now is not the person's doing, so the task stays
   * remembered for the next host.
   */
  hostEnding(): void {
    this.ending = true;
  }

  forget(): void {
    this.write(undefined);
  }

  private write(id: string | undefined): void {
    if (this.remembered() === id) return;
    this.state.update(KEY, id).then(undefined, (error: unknown) => {
      this.warn(`Could not remember the running task for a window reload: ${errorText(error)}`);
    });
  }
}
