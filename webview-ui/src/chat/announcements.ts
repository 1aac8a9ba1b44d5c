/**
 * What a screen reader hears of the chat. The virtualized list cannot be a live region (its rows
 * come and go as it scrolls, and a streamed row changes with every chunk), so a visually hidden
 * region fed from the store says it instead: the finished text of each of the model's messages
 * (politely, at most one announcement per THROTTLE_MS, the ones that came in between joined), and
 * at once a new question ("Tandem asks to run a command: npm test"), an error, and "Task
 * Completed". `busy` is true while a response streams (the log's aria-busy).
 */
import type { AskKind, ChatMessage } from "../../../src/shared/messages";
import type { OpenQuestion } from "../../../src/shared/protocol";
import type { ExtensionStore } from "../state/extension-store";
import { toolLabel } from "../rows/tool-labels";
import { withoutOptionList } from "../rows/offered-options";

/** The least time between two polite announcements. */
export const THROTTLE_MS = 1500;
/** A longer text is cut, and says so: the row holds all of it. */
export const MAX_ANNOUNCED_CHARS = 400;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

const REAL_TIMERS: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

export interface LiveState {
  /** The polite region's text. */
  readonly polite: string;
  /** The assertive region's text. */
  readonly assertive: string;
  /** A response is streaming. */
  readonly busy: boolean;
}

/** One line for a screen reader: blank runs squeezed, markdown's marks dropped, long text cut. */
export function spoken(text: string): string {
  const plain = text
    .replace(/```[\s\S]*?```/g, " (code) ")
    .replace(/[*_`#>]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return plain.length > MAX_ANNOUNCED_CHARS ? `${plain.slice(0, MAX_ANNOUNCED_CHARS).trimEnd()}… (more in the chat)` : plain;
}

const ASKS: Record<AskKind, string> = {
  followup: "Tandem asks",
  tool: "Tandem asks to use a tool",
  command: "Tandem asks to run a command",
  command_output: "The command is still running: proceed while it runs, or kill it?",
  completion_result: "Task Completed",
  api_req_failed: "API request failed",
  mistake_limit_reached: "Tandem made too many mistakes in a row: proceed anyway, or start a new task?",
  spend_limit_reached: "The task reached its spending cap: continue once, raise the cap, or stop?",
  new_task: "Tandem proposes to start a new task with this context",
  resume_task: "The task was interrupted: resume it?",
  plan_mode_respond: "Tandem's plan",
};

/** The questions whose sentence quotes their row's text (the command, the question, the plan, the error). */
const NEEDS_TEXT: ReadonlySet<AskKind> = new Set(["command", "followup", "plan_mode_respond", "api_req_failed"]);

/** The sentence for a question that just opened; `row` is the message that asks it. */
export function questionAnnouncement(question: OpenQuestion, row: ChatMessage | undefined): string {
  const base = ASKS[question.kind];
  // The options are said once, after the text: a list of them in the text itself is left out.
  const text = spoken(withoutOptionList(row?.text ?? "", row?.options ?? []));
  const options = row?.options?.length ? ` Options: ${row.options.join(", ")}.` : "";
  switch (question.kind) {
    case "tool": {
      const tool = row?.tool;
      if (!tool) return base;
      const what = toolLabel(tool, "proposed").title.replace(/^Tandem wants to /, "Tandem asks to ");
      return tool.path ? `${what}: ${tool.path}` : what;
    }
    case "command":
    case "followup":
    case "plan_mode_respond":
    case "api_req_failed":
      return text ? `${base}: ${text}${options}` : `${base}.${options}`;
    default:
      return base;
  }
}

/** What a message that just finished says, if it says anything: the model's prose, an error, a result. */
export function messageAnnouncement(message: ChatMessage): { text: string; urgent: boolean } | undefined {
  if (message.type !== "say" || message.partial) return undefined;
  const text = spoken(message.text ?? "");
  switch (message.say) {
    case "text":
      return text ? { text, urgent: false } : undefined;
    case "error":
      return { text: text ? `Error: ${text}` : "Error", urgent: true };
    case "completion_result":
      return { text: text ? `Task Completed: ${text}` : "Task Completed", urgent: true };
    default:
      return undefined;
  }
}

/**
 * The two regions' texts. A polite text waits until THROTTLE_MS have passed since the last one
 * (those that pile up go out together); an urgent one goes at once. The same words twice get a
 * trailing no-break space, so the region changes and a screen reader says them again.
 */
export class LiveAnnouncer {
  private state: LiveState = { polite: "", assertive: "", busy: false };
  private readonly listeners = new Set<() => void>();
  private pending: string[] = [];
  private timer: unknown;
  private lastPolite = -Infinity;

  constructor(private readonly timers: Timers = REAL_TIMERS) {}

  readonly getState = (): LiveState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  announce(text: string, urgent: boolean): void {
    if (!text) return;
    if (urgent) return this.patch({ assertive: fresh(this.state.assertive, text) });
    this.pending.push(text);
    if (this.timer !== undefined) return;
    const wait = this.lastPolite + THROTTLE_MS - this.timers.now();
    if (wait <= 0) return this.flush();
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  setBusy(busy: boolean): void {
    if (busy !== this.state.busy) this.patch({ busy });
  }

  dispose(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
  }

  private flush(): void {
    const text = this.pending.join(" ");
    this.pending = [];
    this.lastPolite = this.timers.now();
    this.patch({ polite: fresh(this.state.polite, text) });
  }

  private patch(changes: Partial<LiveState>): void {
    this.state = { ...this.state, ...changes };
    for (const listener of [...this.listeners]) listener();
  }
}

function fresh(current: string, text: string): string {
  return current === text ? `${text}\u00a0` : text;
}

/**
 * Feeds `announcer` from `store`: questions as they open, messages as they finish (a message
 * loaded whole, with the page's first state or a task opened from History, is not news), and
 * busy while the newest message streams. Returns the unsubscribe.
 */
export function watchChat(store: ExtensionStore, announcer: LiveAnnouncer): () => void {
  let questionId = store.getState().question?.id;
  /** A question whose row is not all there yet (still partial, or its text to come): said with the row's next update. */
  let waiting: OpenQuestion | undefined;
  const sayQuestion = (question: OpenQuestion) => {
    const row = store.getMessage(question.id);
    if (question !== waiting && (!row || row.partial || (NEEDS_TEXT.has(question.kind) && !row.text))) {
      waiting = question;
      return;
    }
    waiting = undefined;
    announcer.announce(questionAnnouncement(question, row), true);
  };
  const updateBusy = () => {
    const state = store.getState();
    announcer.setBusy(state.running && store.messageAt(state.messageCount - 1)?.partial === true);
  };
  const offState = store.subscribe(() => {
    const { question } = store.getState();
    // The completion says "Task Completed" with its result as it finishes; its question adds nothing.
    if (question && question.id !== questionId && question.kind !== "completion_result") sayQuestion(question);
    if (waiting && waiting.id !== question?.id) waiting = undefined;
    questionId = question?.id;
    updateBusy();
  });
  const offMessages = store.onMessageUpserted((message, previous) => {
    if (waiting?.id === message.ts) sayQuestion(waiting);
    if (previous && !previous.partial) return updateBusy();
    const said = messageAnnouncement(message);
    if (said) announcer.announce(said.text, said.urgent);
    updateBusy();
  });
  return () => {
    offState();
    offMessages();
  };
}
