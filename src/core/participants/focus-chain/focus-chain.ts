/**
 * The focus chain in the loop: the one owner of the task's checklist (`items`, with the seed's
 * `apiRequestsSinceLastTodoUpdate`), changed only here and under the task's state lock.
 * - The model writes it in the `task_progress` parameter of any tool call (every call carries
 *   it: `callParams`; each complete call's value is taken as it arrives, before the tool runs,
 *   or once the call is over when its preview row is open; an unreadable list leaves the old one
 *   and the model is told, while the tool runs as usual).
 * - The person edits it in the panel; the model hears of the edit with its next request.
 * - Each version is a `task_progress` chat row, so it is saved with the chat and a resumed task
 *   (or a reloaded panel) takes the newest row's list.
 * - Every N requests without an update (the reminder interval), the next request reminds the
 *   model; an attempt_completion with open items is held back once.
 */
import type { ToolSpec } from "../../../api/types";
import type { ChatMessage } from "../../../shared/messages";
import { focusChainMarkdown, type FocusChainInfo, type FocusChainItem } from "../../../shared/focus-chain";
import type { ArrivedCall, CallRefusal, PromptRequest, RequestDraft, TaskOpening, TaskParticipant } from "../../task/participant";
import type { ToolCall } from "../../task/tool-call";
import type { TaskScope } from "../../task/task-scope";
import { parseChecklist, readEditedItems } from "./focus-chain-parse";
import { focusChainSection, focusChainText, TASK_PROGRESS, withTaskProgressSpec } from "./focus-chain-prompt";

export class FocusChain implements TaskParticipant {
  readonly name = "focus-chain";
  readonly callParams = [TASK_PROGRESS];
  /** The checklist as it stands; undefined until one is written. */
  private list: readonly FocusChainItem[] | undefined;
  /** Requests since the model last wrote the checklist: the reminder's count (the seed's name). */
  private apiRequestsSinceLastTodoUpdate = 0;
  /** The list of a call whose preview row is open: taken once the call is over (callSettled). */
  private deferred: { call: ToolCall; text: string; mark: number } | undefined;
  /** What the model must hear with its next request: its lists that could not be read. */
  private notes: string[] = [];
  /** The person's newest edit, until a request carries it (an older one it has not seen is replaced). */
  private personEdit: string | undefined;
  /** An attempt_completion with open items was held back; the next one goes through. */
  private completionHeld = false;
  /** How many edits the person made: a model's list written before the newest one does not replace it. */
  private personEdits = 0;

  constructor(private readonly scope: TaskScope) {}

  get enabled(): boolean {
    return this.scope.settings().focusChain;
  }

  /** The checklist as it stands (undefined until one is written). */
  get items(): readonly FocusChainItem[] | undefined {
    return this.list;
  }

  /** Requests since the model last wrote the checklist. */
  get requestsSinceUpdate(): number {
    return this.apiRequestsSinceLastTodoUpdate;
  }

  systemPrompt(request: PromptRequest): readonly string[] {
    return this.enabled ? [focusChainSection(request.toolCallMode)] : [];
  }

  toolSpecs(specs: readonly ToolSpec[]): readonly ToolSpec[] {
    return this.enabled ? withTaskProgressSpec(specs) : specs;
  }

  async opened(opening: TaskOpening): Promise<void> {
    if (opening.kind === "resumed") await this.restore(opening.chat);
  }

  /**
   * A complete call's task_progress, whatever becomes of the call (a cut-off call's list may be
   * cut too, so it is not taken). A streamed preview row becomes the call's question next, so a
   * checklist row now would come between: its list waits for the call's end. attempt_completion
   * with open items is held back once.
   */
  async callArrived({ call, tool }: ArrivedCall): Promise<CallRefusal | undefined> {
    if (call.partial || call.cutOff) return undefined;
    const text = call.params[TASK_PROGRESS];
    if (text !== undefined && tool?.presentPartial) this.deferred = { call, text, mark: this.personEdits };
    else await this.fromModel(text);
    if (tool?.name !== "attempt_completion") return undefined;
    const held = await this.holdCompletion();
    return held === undefined ? undefined : { kind: "held", text: held };
  }

  /** The deferred list, once its call is over (an edit by the person meanwhile wins: fromModel's mark). */
  async callSettled(call: ToolCall): Promise<void> {
    const deferred = this.deferred;
    if (deferred?.call !== call) return;
    this.deferred = undefined;
    await this.fromModel(deferred.text, deferred.mark);
  }

  async beforeRequest(draft: RequestDraft): Promise<undefined> {
    const news = await this.news();
    if (news) draft.add(news);
    return undefined;
  }

  /**
   * A call's task_progress (undefined: it had none). Never throws: the call must run whatever the
   * list says. With `mark` (taken when the call closed), a person's edit made since wins: the
   * model wrote its list without seeing it, and hears of the edit with its next request.
   */
  private async fromModel(text: string | undefined, mark?: number): Promise<void> {
    if (text === undefined || !this.enabled || (mark !== undefined && mark !== this.personEdits)) return;
        const reading = parseChecklist(text);
    if ("error" in reading) {
      await this.scope.withStateLock(() => this.notes.push(focusChainText.unreadable(reading.error, this.list)));
      await this.scope.say("error", `The model's checklist could not be read: ${reading.error}`, {});
      return;
    }
    const changed = await this.scope.withStateLock(() => {
      this.apiRequestsSinceLastTodoUpdate = 0;
      if (this.list && sameItems(this.list, reading.items)) return false;
      this.list = reading.items;
      return true;
    });
    if (changed) await this.show(reading.items, "model");
  }

  /** The person's edit from the panel; a list that does not fit throws an Error that says why. */
  async fromPerson(value: unknown): Promise<void> {
    if (!this.enabled) throw new Error("The focus chain is off (the focusChain setting), so there is no checklist to edit.");
    const reading = readEditedItems(value);
    if ("error" in reading) throw new Error(`The checklist was not changed: ${reading.error}`);
        const changed = await this.scope.withStateLock(() => {
      if (sameItems(this.list ?? [], reading.items)) return false;
      this.list = reading.items;
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
  private async holdCompletion(): Promise<string | undefined> {
    const open = this.enabled ? (this.list ?? []).filter((item) => !item.done) : [];
    const hold = await this.scope.withStateLock(() => {
      const held = open.length > 0 && !this.completionHeld;
      this.completionHeld = held;
      return held;
    });
    if (!hold) return undefined;
    await this.scope.say("info", `Tandem asked the model to finish or update ${open.length} open checklist item${open.length === 1 ? "" : "s"} before completing.`, {});
    return focusChainText.completionHeld(open);
  }

  /**
   * Before each request: what the model must hear of the checklist, if anything, and the request
   * counted. The reminder comes when `interval` requests went by without an update, then the count
   * starts again.
   */
  private news(): Promise<string | undefined> {
    return this.scope.withStateLock(() => {
      const notes = [...this.notes, ...(this.personEdit ? [this.personEdit] : [])];
      this.notes = [];
      this.personEdit = undefined;
      if (!this.enabled) return notes.join("\n\n") || undefined;
      const since = this.apiRequestsSinceLastTodoUpdate;
      if (since >= this.scope.settings().focusChainReminderInterval) {
        notes.push(focusChainText.reminder(this.list, since));
        this.apiRequestsSinceLastTodoUpdate = 0;
      }
      this.apiRequestsSinceLastTodoUpdate++;
      return notes.join("\n\n") || undefined;
    });
  }

  /**
   * A resumed task: the newest checklist row's list; the requests since the model's last update
   * counted again; and a person's edit that no request carried yet goes with the next one.
   */
  private restore(chat: readonly ChatMessage[]): Promise<void> {
    return this.scope.withStateLock(() => {
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
      this.list = newest ? [...newest.items] : undefined;
      this.apiRequestsSinceLastTodoUpdate = sinceModel ?? requestsAfter;
      if (pendingEdit && newest) this.personEdit = focusChainText.personEdited(newest.items);
    });
  }

  private show(items: readonly FocusChainItem[], by: FocusChainInfo["by"]): Promise<unknown> {
    return this.scope.say("task_progress", focusChainMarkdown(items), { focusChain: { items, by } });
  }
}

function sameItems(a: readonly FocusChainItem[], b: readonly FocusChainItem[]): boolean {
  return a.length === b.length && a.every((item, i) => item.text === b[i]?.text && item.done === b[i]?.done);
}
