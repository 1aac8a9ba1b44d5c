/**
 * The panel's copy of the host's state. `apply` is the reducer for every `ToWebviewMessage`; the
 * store is external to React (read through useSyncExternalStore) so that a streamed update touches
 * one slot of the message list and re-renders only the row showing that message.
 */
import type { ChatMessage } from "../../../src/shared/messages";
import type { PanelView, TaskSummary, ToWebviewMessage } from "../../../src/shared/protocol";
import { addUsage, billedUsage, contextTokens, openEstimate, requestInfo, sumUsage } from "../../../src/shared/usage";
import { MessageList } from "./message-list";
import { INITIAL_PANEL_STATE, type PanelState } from "./panel-state";
import { newChangesBase } from "../rows/new-changes";


type Listener = () => void;

export class ExtensionStore {
  private readonly list = new MessageList();
  private state: PanelState;
  private readonly listeners = new Set<Listener>();
  private readonly messageListeners = new Map<number, Set<Listener>>();
  private readonly upsertListeners = new Set<(message: ChatMessage, previous: ChatMessage | undefined) => void>();
  /** Timestamp of the newest api_req_started message with usage, for the context bar. */
  private contextTs = -Infinity;
  /** Timestamp of the newest row carrying the checklist. */
  private focusTs = -Infinity;
  /** What the rows ask of the whole list (checkpoint numbers, "See new changes"), computed once per list version. */
  private derived: { version: number; checkpoints: Map<number, number>; newChanges: Map<number, number | undefined> } | undefined;
  private seq = 0;

  /** `restoring`: the page was created while the host reopens an interrupted task (its HTML says so). */
  constructor(start: { restoring?: boolean } = {}) {
    this.state = { ...INITIAL_PANEL_STATE, restoring: start.restoring === true };
  }

  readonly getState = (): PanelState => this.state;

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getMessage(ts: number): ChatMessage | undefined {
    return this.list.get(ts);
  }

  messageAt(index: number): ChatMessage | undefined {
    return this.list.at(index);
  }

  /** How many messages follow the one with timestamp `ts` (what restoring the task to it removes). */
  messagesAfter(ts: number): number {
    const index = this.list.indexOf(ts);
    return index < 0 ? 0 : this.list.length - index - 1;
  }

  subscribeMessage(ts: number, listener: Listener): () => void {
    let set = this.messageListeners.get(ts);
    if (!set) this.messageListeners.set(ts, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.messageListeners.delete(ts);
    };
  }

  /** Calls `listener` with each message added or updated one by one (not those a bulk load replaces), and what it was before. */
  onMessageUpserted(listener: (message: ChatMessage, previous: ChatMessage | undefined) => void): () => void {
    this.upsertListeners.add(listener);
    return () => this.upsertListeners.delete(listener);
  }

  /** Row `ts`'s checkpoint number (0: the task's start, then each round that changed files), as the list stands. */
  checkpointNumber(ts: number): number | undefined {
    return this.derivedFromList().checkpoints.get(ts);
  }

  /** What "See new changes" on result row `ts` compares (rows/new-changes.ts); undefined: nothing changed since the last result. */
  newChangesBase(ts: number): number | undefined {
    const { newChanges } = this.derivedFromList();
    if (!newChanges.has(ts)) newChanges.set(ts, newChangesBase(this.list.values(), ts));
    return newChanges.get(ts);
  }

  private derivedFromList() {
    if (this.derived?.version === this.state.listVersion) return this.derived;
    // As shared/checkpoints.ts numbers them: the first row is 0 (once it has its checkpoint), the rounds' from 1.
    const checkpoints = new Map<number, number>();
    for (const [index, message] of this.list.values().entries()) if (index > 0 && message.checkpoint) checkpoints.set(message.ts, checkpoints.size + 1);
    this.derived = { version: this.state.listVersion, checkpoints, newChanges: new Map() };
    return this.derived;
  }

  /** Work done on the message list so far (slot and index writes). */
  get listOperations(): number {
    return this.list.operations;
  }

  apply(message: ToWebviewMessage): void {
    switch (message.type) {
      case "state": {
        const { state } = message;
        this.list.replaceAll(state.messages);
        this.patch({ hydrated: true, task: state.task, running: state.running, question: state.question, settings: state.settings, history: state.history, mcp: state.mcp, mode: state.mode, restoring: state.restoring, workspace: state.workspace });
        this.messagesReplaced();
        return;
      }
      case "messageAdded":
        this.upsert(message.message);
        return;
      case "messageUpdated":
        this.applyUpdated(message);
        return;
      case "messageStreamed":
        this.applyStreamed(message);
        return;
      case "messagesRemoved":
        if (this.list.remove(message.timestamps).length > 0) this.messagesReplaced(message.timestamps);
        return;
      case "messagesLoaded":
        this.list.replaceAll(message.messages);
        this.messagesReplaced();
        return;
      case "taskChanged":
        this.changeTask(message.task);
        return;
      case "modeChanged":
        return this.patch({ mode: message.mode });
      case "taskRunning":
        this.patch({ running: message.running });
        return;
      case "restoring":
        this.patch({ restoring: message.restoring });
        return;
      case "questionChanged":
        this.patch({ question: message.question });
        return;
      case "answerRefused":
        this.handBack(message);
        return;
      case "settingsChanged": {
        // Another provider chosen: the last test said nothing about it.
        const tested = this.state.connectionTest;
        const stale = tested !== undefined && tested.provider !== message.settings.api.provider;
        this.patch({ settings: message.settings, ...(stale ? { connectionTest: undefined } : {}) });
        return;
      }
      case "historyItemChanged": {
        const { item } = message;
        const index = this.state.history.findIndex((listed) => listed.id === item.id);
        this.patch({ history: index < 0 ? [item, ...this.state.history] : this.state.history.with(index, item) });
        return;
      }
      case "historyItemsRemoved": {
        const gone = new Set(message.ids);
        this.patch({ history: this.state.history.filter((listed) => !gone.has(listed.id)) });
        return;
      }
      case "historyResults":
        this.patch({ historyResults: { requestId: message.requestId, query: message.query, matches: message.matches, total: message.total } });
        return;
      case "sandboxChanged":
        this.patch({ sandbox: message.sandbox });
        return;
      case "checkpointStore":
        this.patch({ checkpointStoreBytes: message.bytes });
        return;
      case "workspaceResults":
        this.patch({ workspaceResults: { requestId: message.requestId, query: message.query, results: message.results } });
        return;
      case "rules":
        this.patch({ rules: message.rules });
        return;
      case "slashCommands":
        this.patch({ slashCommands: message.commands });
        return;
      case "connectionTested":
        this.patch({ connectionTest: { id: ++this.seq, provider: message.provider, ok: message.ok, text: message.text } });
        return;
      case "mcpServersChanged":
        this.applyMcpServers(message);
        return;
      case "mcpElicitationOpened":
        this.patch({ mcp: { ...this.state.mcp, elicitations: [...this.state.mcp.elicitations, message.elicitation] } });
        return;
      case "mcpElicitationClosed":
        this.patch({ mcp: { ...this.state.mcp, elicitations: this.state.mcp.elicitations.filter((e) => e.id !== message.id) } });
        return;
      case "showView":
        this.patch({ view: message.view });
        return;
      case "focusInput":
        this.patch({ inputRequest: { seq: ++this.seq, kind: "focus" } });
        return;
      case "focusQuestion":
        return this.focusQuestion(message.questionId);
      case "insertText":
        this.patch({ inputRequest: { seq: ++this.seq, kind: "insert", text: message.text, images: [] } });
        return;
      case "notice":
        this.patch({ notice: { id: ++this.seq, level: message.level, text: message.text } });
        return;
      default:
        throw new Error(`Tandem webview: unknown message type ${JSON.stringify((message as { type?: unknown }).type)}`);
    }
  }

  /** Local navigation (the Done buttons of settings and history, back to the chat). */
  setView(view: PanelView): void {
    this.patch({ view });
  }

  /** Puts the focus back in the input box (after an answer button or a menu took it). */
  focusInput(): void {
    this.patch({ inputRequest: { seq: ++this.seq, kind: "focus" } });
  }

  /** A notification's Show: the keyboard to the question's answers; answered meanwhile, to the input box, where the person can go on. */
  private focusQuestion(questionId: number): void {
    if (this.state.question?.id === questionId) this.patch({ questionFocus: { seq: ++this.seq, questionId } });
    else this.patch({ inputRequest: { seq: ++this.seq, kind: "focus" } });
  }

  dismissNotice(id: number): void {
    if (this.state.notice?.id === id) this.patch({ notice: undefined });
  }

  /** A refused answer: the notice says why, and what was typed goes back into the input box. */
  private handBack({ answer, reason }: Extract<ToWebviewMessage, { type: "answerRefused" }>): void {
    const text = answer.text ?? "";
    const images = answer.images ?? [];
    const typed = text.length > 0 || images.length > 0;
    const notice = { id: ++this.seq, level: "warning" as const, text: typed ? `${reason} What you wrote is back in the input box.` : reason };
    this.patch({
      notice,
      ...(typed ? { inputRequest: { seq: ++this.seq, kind: "insert", text, images } } : {}),
    });
  }

  /** Each changed server replaces its namesake in place (a new one goes last); removed ones go. */
  private applyMcpServers({ changed, removed, problems }: Extract<ToWebviewMessage, { type: "mcpServersChanged" }>): void {
    const gone = new Set(removed);
    const servers = this.state.mcp.servers.filter((s) => !gone.has(s.name)).map((s) => changed.find((c) => c.name === s.name) ?? s);
    for (const server of changed) if (!servers.some((s) => s.name === server.name)) servers.push(server);
    this.patch({ mcp: { ...this.state.mcp, servers, ...(problems ? { problems } : {}) } });
  }

  private upsert(message: ChatMessage): void {
    const countBefore = this.list.length;
    const previous = this.list.upsert(message);
    const changes: { -readonly [K in keyof PanelState]?: PanelState[K] } = {};
    const billedBefore = billedUsage(previous);
    const billedAfter = billedUsage(message);
    if (billedBefore || billedAfter) changes.totals = addUsage(addUsage(this.state.totals, billedBefore, -1), billedAfter);
    const after = requestInfo(message);
    // Only a task's first request carries an estimate, and only until its usage arrives.
    if (after?.estimate) changes.estimate = openEstimate(message);
    if (after && contextTokens(after) > 0 && message.ts >= this.contextTs) {
      this.contextTs = message.ts;
      changes.contextTokens = contextTokens(after);
    }
    if (message.focusChain && message.ts >= this.focusTs) {
      this.focusTs = message.ts;
      changes.focusChain = message.focusChain;
    }
    if (this.list.length !== countBefore) {
      changes.messageCount = this.list.length;
      changes.listVersion = this.state.listVersion + 1;
    }
    if (Object.keys(changes).length > 0) this.patch(changes);
    this.notifyMessage(message.ts);
    for (const listener of [...this.upsertListeners]) listener(message, previous);
  }

  /** A whole message, less the streamed strings it says this page holds unchanged (`kept`). */
  private applyUpdated({ message, kept }: Extract<ToWebviewMessage, { type: "messageUpdated" }>): void {
    if (!kept?.length) return this.upsert(message);
    const current = this.list.get(message.ts);
    // Only a new page, before its `state` arrives, lacks the row; that state carries it whole.
    if (!current) return;
    let merged = message;
    if (kept.includes("text")) merged = { ...merged, text: current.text };
    if (kept.includes("tool.content") && merged.tool) merged = { ...merged, tool: { ...merged.tool, content: current.tool?.content } };
    this.upsert(merged);
  }

  /** O(what arrived) when it appends: JS concatenation makes a rope and copies nothing. */
  private applyStreamed({ ts, field, from, text }: Extract<ToWebviewMessage, { type: "messageStreamed" }>): void {
    const current = this.list.get(ts);
    // Only a new page, before its `state` arrives, lacks the row; that state carries it whole.
    if (!current) return;
    const grown = (value = "") => (from === value.length ? value : value.slice(0, from)) + text;
    if (field === "text") this.upsert({ ...current, text: grown(current.text) });
    else if (current.tool) this.upsert({ ...current, tool: { ...current.tool, content: grown(current.tool.content) } });
  }

  private changeTask(task: TaskSummary | undefined): void {
    const sameTask = task !== undefined && task.id === this.state.task?.id;
    // A new task (or none) clears the notice, which spoke of the one before; notices of a restore come after its task is back.
    const cleared = sameTask ? {} : { notice: undefined };
    // A different task (or none) owns none of the messages shown so far.
    if (!sameTask && this.list.length > 0) {
      this.list.replaceAll([]);
      this.patch({ task, ...cleared });
      this.messagesReplaced();
      return;
    }
    this.patch({ task, ...cleared });
  }

  /** After a bulk change: recompute what depends on the whole list, tell every row. */
  private messagesReplaced(only?: readonly number[]): void {
    const messages = this.list.values();
    this.contextTs = -Infinity;
    let context = 0;
    for (let i = messages.length - 1; i >= 0; i--) {
      const info = requestInfo(messages[i]);
      if (info && contextTokens(info) > 0) {
        this.contextTs = messages[i]?.ts ?? -Infinity;
        context = contextTokens(info);
        break;
      }
    }
    const focus = messages.findLast((m) => m.focusChain !== undefined);
    this.focusTs = focus?.ts ?? -Infinity;
    this.patch({
      messageCount: messages.length,
      listVersion: this.state.listVersion + 1,
      totals: sumUsage(messages),
      estimate: openEstimate(messages.find((m) => requestInfo(m) !== undefined)),
      contextTokens: context,
      focusChain: focus?.focusChain,
    });
    for (const ts of only ?? [...this.messageListeners.keys()]) this.notifyMessage(ts);
  }

  private patch(changes: Partial<PanelState>): void {
    this.state = { ...this.state, ...changes };
    for (const listener of [...this.listeners]) listener();
  }

  private notifyMessage(ts: number): void {
    const set = this.messageListeners.get(ts);
    if (set) for (const listener of [...set]) listener();
  }
}
