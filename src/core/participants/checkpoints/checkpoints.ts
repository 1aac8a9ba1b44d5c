/**
 * A task's checkpoints, in the seed's places: the initial checkpoint starts when the task opens,
 * off the request path (the first request does not wait for it; a call of a tool that changes
 * files does); after each round's tools ran, the workspace is recorded before the recursion, and a
 * round that changed files gets a `checkpoint_created` row the panel shows as a marker.
 * Assembled only when checkpoints are on.
 */
import type { CheckpointRepository } from "../../checkpoints/types";
import type { LentServices, StartingCall, TaskParticipant } from "../../task/participant";
import type { TaskScope } from "../../task/task-scope";
import { errorText } from "../../util/error-text";

export class TaskCheckpoints implements TaskParticipant {
  readonly name = "checkpoints";
  /** The seed's name: tools that are not read-only wait for it; it never rejects. */
  private initialCheckpointCommitPromise: Promise<void> | undefined;
  private repository: CheckpointRepository | undefined;
  private off = false;
  readonly lends: LentServices = { changes: { sinceStart: () => this.changedSinceStart() } };

  /** `open`: the task's store; undefined when checkpoints cannot work here (the person was told). */
  constructor(
    private readonly scope: TaskScope,
    private readonly open: () => Promise<CheckpointRepository | undefined>,
  ) {}

  async opened(): Promise<void> {
    this.initialCheckpointCommitPromise ??= this.initialize();
  }

  /** A call that may change files waits for the workspace as the task found it to be saved first. */
  async callStarting(call: StartingCall): Promise<undefined> {
    if (!call.tool.readOnly) await this.initialCheckpointCommitPromise;
    return undefined;
  }

  /** Records the round; cheap when nothing changed (no new row). Never rejects: a failure turns checkpoints off for the task. */
  async roundDone(round: number): Promise<void> {
    await this.initialCheckpointCommitPromise;
    const repository = this.repository;
    if (!repository) return;
    try {
      const { hash, changed } = await repository.save(`round ${round}`);
      // "Restore task" to here keeps the conversation up to this round's tool results (the next user message).
      if (changed) await this.scope.say("checkpoint_created", undefined, { checkpoint: { hash, apiMessages: this.scope.messages.apiHistory.length + 1 } });
    } catch (error) {
      await this.turnOff(errorText(error));
    }
  }

  private async initialize(): Promise<void> {
    try {
      const repository = await this.open();
      if (!repository) return;
      const hash = await repository.initialize();
      this.repository = repository;
      // The task's own row marks the workspace as the task found it; "restore task" to it keeps the first message only.
      // A resumed task's row keeps the mark of its first run.
      const { messages } = this.scope;
      const first = messages.chatMessages[0];
      if (first && !first.checkpoint) await this.scope.withStateLock(() => messages.update(first.ts, (row) => (row.checkpoint = { hash, apiMessages: 1 })));
    } catch (error) {
      await this.turnOff(errorText(error));
    }
  }

  /**
   * What differs now from the workspace as the task found it: the mark on its first row (a
   * resumed task's is its first run's); nothing when checkpoints are off or cannot say.
   */
  private async changedSinceStart(): Promise<readonly string[]> {
    await this.initialCheckpointCommitPromise;
    const repository = this.repository;
    const start = this.scope.messages.chatMessages[0]?.checkpoint?.hash;
    if (!repository || !start) return [];
    try {
      return await repository.changedPaths(start);
    } catch {
      return [];
    }
  }

  private async turnOff(reason: string): Promise<void> {
    this.repository = undefined;
    if (this.off) return;
    this.off = true;
    await this.scope.say("info", `Checkpoints are off for this task: ${reason}`);
  }
}
