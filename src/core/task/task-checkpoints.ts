/**
 * A task's checkpoints, in the seed's places: the initial checkpoint starts with the task, off the
 * request path (the first request does not wait for it; tools that change files do); after each
 * round's tools ran, `saveCheckpoint` records the workspace before the recursion, and a round that
 * changed files gets a `checkpoint_created` row the panel shows as a marker.
 */
import type { SayKind } from "../../shared/messages";
import { errorText } from "../util/error-text";
import type { SayExtra } from "./chat-channel";
import type { MessageState } from "./message-state";
import type { CheckpointRepository } from "./task-params";

export interface TaskCheckpointsDeps {
  readonly messages: MessageState;
  say(kind: SayKind, text?: string, extra?: SayExtra): Promise<unknown>;
  withStateLock<T>(fn: () => T): Promise<T>;
}

export class TaskCheckpoints {
  /** The seed's name: tools that are not read-only wait for it; it never rejects. */
  readonly initialCheckpointCommitPromise: Promise<void>;
  private repository: CheckpointRepository | undefined;
  private off = false;

  /** `open`: the task's store; undefined when checkpoints cannot work here (the person was told). */
  constructor(
    private readonly open: () => Promise<CheckpointRepository | undefined>,
    private readonly deps: TaskCheckpointsDeps,
  ) {
    this.initialCheckpointCommitPromise = this.initialize();
  }

  /** Records the round; cheap when nothing changed (no new row). Never rejects: a failure turns checkpoints off for the task. */
  async saveCheckpoint(round: number): Promise<void> {
    await this.initialCheckpointCommitPromise;
    const repository = this.repository;
    if (!repository) return;
    try {
      const { hash, changed } = await repository.save(`round ${round}`);
      // "Restore task" to here keeps the conversation up to this round's tool results (the next user message).
      if (changed) await this.deps.say("checkpoint_created", undefined, { checkpoint: { hash, apiMessages: this.deps.messages.apiHistory.length + 1 } });
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
      const { messages } = this.deps;
      const first = messages.chatMessages[0];
      if (first && !first.checkpoint) await this.deps.withStateLock(() => messages.update(first.ts, (row) => (row.checkpoint = { hash, apiMessages: 1 })));
    } catch (error) {
      await this.turnOff(errorText(error));
    }
  }

  private async turnOff(reason: string): Promise<void> {
    this.repository = undefined;
    if (this.off) return;
    this.off = true;
    await this.deps.say("info", `Checkpoints are off for this task: ${reason}`);
  }
}
