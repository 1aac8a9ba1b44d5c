/**
 * The focus chain in the loop: the one owner of the task's checklist. The list itself lives in
 * TaskState (`focusChain`, with `apiRequestsSinceLastTodoUpdate`, as in the seed); this class
 * changes them under the state lock.
 * - The model writes it in the `task_progress` parameter of any tool call (the executor hands
 *   each call's value here before the tool runs; an unreadable list leaves the old one and the
 *   model is told, while the tool runs as usual).
 * - The person edits it in the panel; the model hears of the edit with its next request.
 * - Each version is a `task_progress` chat row, so it is saved with the chat and a resumed task
 *   (or a reloaded panel) takes the newest row's list.
 * - Every N requests without an update (the reminder interval), the next request reminds the
 *   model; an attempt_completion with open items is held back once.
 */
import type { ChatMessage, SayKind } from "../../shared/messages";
import { focusChainMarkdown, type FocusChainInfo, type FocusChainItem } from "../../shared/focus-chain";
import type { AgentSettings } from "../../shared/settings";
import { parseChecklist, readEditedItems } from "./focus-chain-parse";
import { focusChainText } from "./focus-chain-prompt";
import type { TaskState } from "./task-state";

export interface FocusChainDeps {
  readonly state: TaskState;
  settings(): AgentSettings;
  say(kind: SayKind, text: string, extra: { focusChain?: FocusChainInfo }): Promise<unknown>;
  withStateLock<T>(fn: () => T): Promise<T>;
}

export class FocusChain {
  /** What the model must hear with its next request: its lists that could not be read. */
  private notes: string[] = [];
  /** The person's newest edit, until a request carries it (an older one it has not seen is replaced). */
  private personEdit: string | undefined;
  /** An attempt_completion with open items was held back; the next one goes through. */
  private completionHeld = false;
  /** How many edits the person made: a model's list written before the newest one does not replace it. */
  private personEdits = 0;

  constructor(private readonly deps: FocusChainDeps) {}

  get enabled(): boolean {
    return this.deps.settings().focusChain;
  }

  /** Marks the person's edits so far, for a model's list taken later (`fromModel`'s `mark`). */
  get editMark(): number {
    return this.personEdits;
  }

  /**
   * A call's task_progress (undefined: it had none). Never throws: the call must run whatever the
   * list says. With `mark` (taken when the call closed), a person's edit made since wins: the
   * model wrote its list without seeing it, and hears of the edit with its next request.
   */
  async fromModel(text: string | undefined, mark?: number): Promise<void> {
    if (text === undefined || !this.enabled || (mark !== undefined && mark !== this.personEdits)) return;
    const { state } = this.deps;
    const reading = parseChecklist(text);
    if ("error" in reading) {
      await this.deps.withStateLock(() => this.notes.push(focusChainText.unreadable(reading.error, state.focusChain)));
      await this.deps.say("error", `The model's checklist could not be read: ${reading.error}`, {});
      return;
    }
    const changed = await this.deps.withStateLock(() => {
      state.apiRequestsSinceLastTodoUpdate = 0;
      if (state.focusChain && sameItems(state.focusChain, reading.items)) return false;
      state.focusChain = reading.items;
      return true;
    });
    if (changed) await this.show(reading.items, "model");
  }

  /** The person's edit from the panel; a list that does not fit throws an Error that says why. */
  async fromPerson(value: unknown): Promise<void> {
    if (!this.enabled) throw new Error("The focus chain is off (the focusChain setting), so there is no checklist to edit.");
    const reading = readEditedItems(value);
    if ("error" in reading) throw new Error(`The checklist was not changed: ${reading.error}`);
    const { state } = this.deps;
    const changed = await this.deps.withStateLock(() => {
      if (sameItems(state.focusChain ?? [], reading.items)) return false;
      state.focusChain = reading.items;
      this.personEdits++;
      this.personEdit = focusChainText.personEdited(reading.items);
      return true;
    });
    if (changed) await this.show(reading.items, "person");
  }

  /**
   * attempt_completion is about to run: with open items the first time, the text the model gets
   * instead (the person does not see the result yet); undefined lets it run.
   */
  async holdCompletion(): Promise<string | undefined> {
    const open = this.enabled ? (this.deps.state.focusChain ?? []).filter((item) => !item.done) : [];
    const hold = await this.deps.withStateLock(() => {
      const held = open.length > 0 && !this.completionHeld;
      this.completionHeld = held;
      return held;
    });
    if (!hold) return undefined;
    await this.deps.say("info", `Tandem asked the model to finish or update ${open.length} open checklist item${open.length === 1 ? "" : "s"} before completing.`, {});
    return focusChainText.completionHeld(open);
  }

  /**
   * Before each request: what the model must hear of the checklist, if anything, and the request
   * counted. The reminder comes when `interval` requests went by without an update, then the count
   * starts again.
   */
  beforeRequest(): Promise<string | undefined> {
    return this.deps.withStateLock(() => {
      const notes = [...this.notes, ...(this.personEdit ? [this.personEdit] : [])];
      this.notes = [];
      this.personEdit = undefined;
      if (!this.enabled) return notes.join("\n\n") || undefined;
      const { state } = this.deps;
      const since = state.apiRequestsSinceLastTodoUpdate;
      if (since >= this.deps.settings().focusChainReminderInterval) {
        notes.push(focusChainText.reminder(state.focusChain, since));
        state.apiRequestsSinceLastTodoUpdate = 0;
      }
      state.apiRequestsSinceLastTodoUpdate++;
      return notes.join("\n\n") || undefined;
    });
  }

  /**
   * A resumed task: the newest checklist row's list; the requests since the model's last update
   * counted again; and a person's edit that no request carried yet goes with the next one.
   */
  restore(chat: readonly ChatMessage[]): Promise<void> {
    return this.deps.withStateLock(() => {
      const { state } = this.deps;
      let requestsAfter = 0;
      let sinceModel: number | undefined;
      let newest: FocusChainInfo | undefined;
      let pendingEdit = false;
      for (let i = chat.length - 1; i >= 0 && sinceModel === undefined; i--) {
        const message = chat[i];
        if (message?.type === "say" && message.say === "api_req_started") requestsAfter++;
        const info = message?.focusChain;
        if (!info) continue;
        if (!newest) {
          newest = info;
          pendingEdit = info.by === "person" && requestsAfter === 0;
        }
        if (info.by === "model") sinceModel = requestsAfter;
      }
      state.focusChain = newest ? [...newest.items] : undefined;
      state.apiRequestsSinceLastTodoUpdate = sinceModel ?? requestsAfter;
      if (pendingEdit && newest) this.personEdit = focusChainText.personEdited(newest.items);
    });
  }

  private show(items: readonly FocusChainItem[], by: FocusChainInfo["by"]): Promise<unknown> {
    return this.deps.say("task_progress", focusChainMarkdown(items), { focusChain: { items, by } });
  }
}

function sameItems(a: readonly FocusChainItem[], b: readonly FocusChainItem[]): boolean {
  return a.length === b.length && a.every((item, i) => item.text === b[i]?.text && item.done === b[i]?.done);
}
