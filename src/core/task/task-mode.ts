/**
 * A task's Plan/Act mode, a service of its scope: the Controller switches it, the task's storage
 * keeps it (so a resumed task opens in it), and it tells who listens of each switch. What a mode
 * means for the loop (the tools it offers and refuses, the prompt's section, the note of a
 * switch) is the mode participant's (participants/mode/).
 */
import type { AgentMode } from "../../shared/settings";
import { CoalescingWriter } from "../storage/coalescing-writer";
import { Emitter, type Event } from "../util/event";

export type { AgentMode } from "../../shared/settings";

export class TaskMode {
  private mode: AgentMode;
  /** The mode the conversation so far ran in: a resumed task's saved one, which may differ from where it opens. */
  readonly toldAtStart: AgentMode;
  private readonly writer: CoalescingWriter | undefined;
  private readonly changed = new Emitter<AgentMode>();
  /** Fires after each switch, with the new mode. */
  readonly onDidChange: Event<AgentMode> = this.changed.event;

  constructor(initial: AgentMode, options: { told?: AgentMode; save?: (mode: AgentMode) => Promise<void>; onError?: (error: unknown) => void } = {}) {
    this.mode = initial;
    this.toldAtStart = options.told ?? initial;
    const save = options.save;
    this.writer = save ? new CoalescingWriter(() => save(this.mode), options.onError ?? (() => {})) : undefined;
  }

  get current(): AgentMode {
    return this.mode;
  }

  /** Switches; false when it already was that mode. Saved in the background, latest value last. */
  set(mode: AgentMode): boolean {
    if (mode === this.mode) return false;
    this.mode = mode;
    void this.writer?.request();
    this.changed.fire(mode);
    return true;
  }

  /** Records the mode as it is now (a new task's first one). */
  save(): Promise<void> {
    return this.writer?.request() ?? Promise.resolve();
  }

  flush(): Promise<void> {
    return this.writer?.flush() ?? Promise.resolve();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
