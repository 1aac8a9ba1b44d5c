/**
 * What every part of one task shares, received once: its id, model, host, settings, guard and
 * mode; its state and the one lock every change of it goes through; its two histories and the
 * chat (`say`, `ask`); the signal that cancels it; the commands it runs; and its participants,
 * which the scope consults where any part needs them (an answer, the person's words, a
 * shortening). The scope owns these per-task services and disposes them in one place.
 */
import { Mutex } from "async-mutex";
import type { ApiHandler } from "../../api/types";
import type { HostBridge } from "../../host/bridge";
import type { AskKind, AskMessage, AskResponse, SayKind } from "../../shared/messages";
import type { OpenQuestion } from "../../shared/protocol";
import type { AgentSettings } from "../../shared/settings";
import type { PathGuard } from "../ignore/path-guard";
import type { CommandSandbox } from "../sandbox/command-sandbox";
import { TaskCommands } from "../sandbox/task-commands";
import type { TaskStorage } from "../storage/task-storage";
import type { DisposableLike } from "../util/disposable";
import { errorText } from "../util/error-text";
import { WorkspaceRoots } from "../util/workspace-roots";
import { BackgroundCommands } from "./background-commands";
import { ChatChannel, type AskExtra, type SayExtra } from "./chat-channel";
import { MessageState, type ChatListener } from "./message-state";
import type { ShortenReason, TaskParticipant } from "./participant";
import { Participants } from "./participants";
import { TaskMode } from "./task-mode";
import { TaskState, type AbortReason } from "./task-state";
import type { RawParams, ToolResult } from "./tools/types";

/** Runs a tool by name through every step of a call (ToolExecutor.callTool). */
export type ToolRunner = (name: string, params: RawParams) => Promise<ToolResult>;

export interface TaskScopeOptions {
  readonly taskId: string;
  readonly api: ApiHandler;
  readonly host: HostBridge;
  /** Read on every decision, so a settings change applies to the running task. */
  settings(): AgentSettings;
  /** Paths tools must not touch; none ignores nothing. */
  readonly guard?: PathGuard;
  /** The task's Plan/Act mode (saved with it); none: Act, not saved. */
  readonly mode?: TaskMode;
  readonly listener: ChatListener;
  readonly storage?: TaskStorage;
  /** The OS sandbox commands run in; none runs them unconfined. */
  readonly commandSandbox?: CommandSandbox;
}

export class TaskScope {
  readonly taskId: string;
  readonly api: ApiHandler;
  readonly host: HostBridge;
  /** The workspace's folders as the task found them (a folder added meanwhile joins the next task). */
  readonly roots: WorkspaceRoots;
  readonly guard: PathGuard;
  readonly mode: TaskMode;
  readonly state = new TaskState();
  readonly messages: MessageState;
  /** Every command the task runs goes through it (the sandbox, the task's temp folder). */
  readonly commands: TaskCommands;
  /** Commands the person let run on; their news goes with each request. */
  readonly background = new BackgroundCommands();
  private readonly chat: ChatChannel;
  private readonly mutex = new Mutex();
  private readonly abortController = new AbortController();
  private readonly owned: DisposableLike[] = [];
  private joined = new Participants();
  private toolRunner: ToolRunner | undefined;

  constructor(private readonly options: TaskScopeOptions) {
    this.taskId = options.taskId;
    this.api = options.api;
    this.host = options.host;
    this.roots = WorkspaceRoots.of(options.host.workspace.roots);
    this.guard = options.guard ?? { isIgnored: () => false };
    this.mode = options.mode ?? new TaskMode("act");
    const report = (error: unknown) => this.report(error);
    this.messages = new MessageState(options.listener, options.storage, report);
    const questions = {
      changed: (question: OpenQuestion | undefined) => options.listener.onQuestionChanged?.(question),
      shown: (row: AskMessage) => this.joined.questionShown(row, report),
    };
    this.chat = new ChatChannel(this.messages, (fn) => this.withStateLock(fn), () => this.state.abort, report, questions);
    this.commands = new TaskCommands(options.host.terminal, options.commandSandbox, this.roots.paths, this.guard);
  }

  /** A whole result the model got only part of, kept for the person in the task's folder; undefined when the task is not saved. */
  keepWhole(name: string, text: string): Promise<string | undefined> {
    return this.options.storage ? this.options.storage.keepWhole(name, text) : Promise.resolve(undefined);
  }

  settings(): AgentSettings {
    return this.options.settings();
  }

  /** The task's participants, in the assembly's order. */
  get participants(): Participants {
    return this.joined;
  }

  /** The assembly hands over the participants once, before the Task is made. */
  join(participants: readonly TaskParticipant[]): void {
    if (this.joined.list.length > 0) throw new Error("A task's participants join once, when it is assembled.");
    this.joined = new Participants(participants);
  }

  /** Aborted when the task is cancelled; everything slow listens to it. */
  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  /** Sets the abort flag and aborts the signal, at once: no stage waits behind the lock to see it. */
  abort(reason: AbortReason): void {
    this.state.abortReason = reason;
    this.abortController.abort();
  }

  /** Every change of task state goes through this one lock (but the abort flag and the presenter's re-entrancy pair: task-state.ts). */
  withStateLock<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.mutex.runExclusive(fn);
  }

  /** Shows a message (or updates the streaming one of the same kind). Returns its timestamp. */
  say(kind: SayKind, text?: string, extra: SayExtra = {}): Promise<number> {
    return this.chat.say(kind, text, extra);
  }

  /**
   * Asks the person and waits for the answer (resolves "no" if the task is cancelled meanwhile).
   * An answer a participant takes (`/compact`) or withholds (a hook) asks the question again.
   */
  async ask(kind: AskKind, text: string, extra: AskExtra = {}): Promise<AskResponse> {
    for (;;) {
      const response = await this.chat.ask(kind, text, extra);
      if (this.state.abort || !(await this.joined.askAgain(response))) return response;
    }
  }

  /** Delivers the person's answer to question `questionId`; false if it is not the open one. */
  answer(questionId: number, response: AskResponse): boolean {
    return this.chat.answer(questionId, response);
  }

  get openQuestion(): OpenQuestion | undefined {
    return this.chat.openQuestion;
  }

  /** On cancel: the open question resolves "no" (recorded on its row unless the host is going away). */
  cancelPendingAsk(recordCancel: boolean): void {
    this.chat.cancelPendingAsk(recordCancel);
  }

  /** What the person typed, as the model gets it: expanded by the participants (slash commands, @-mentions), then the blocks it brought. */
  async forModel(text: string | undefined): Promise<string | undefined> {
    const words = await this.joined.personWords(text);
    return words.blocks.length === 0 ? words.text : [words.text ?? "", ...words.blocks].join("\n\n");
  }

  /** The Task lends its ToolExecutor once: then `callTool` runs a tool through every step a model's call takes. */
  runToolsWith(runner: ToolRunner): void {
    if (this.toolRunner) throw new Error("A task has one tool runner.");
    this.toolRunner = runner;
  }

  /** Runs a tool for a participant (a mention's web_fetch): its approval, hooks and row as for a call of the model's. */
  callTool(name: string, params: RawParams): Promise<ToolResult> {
    if (!this.toolRunner) return Promise.reject(new Error(`The task cannot run ${name} before it is assembled.`));
    return this.toolRunner(name, params);
  }

  /** Whether the conversation may be shortened now (a PreCompact hook may say no). */
  mayShorten(reason: ShortenReason): Promise<boolean> {
    return this.joined.mayShorten(reason, this.messages.apiHistory.length);
  }

  /** A failure of Tandem itself (not the model's, not the person's): the host shows it. */
  report(error: unknown): void {
    this.host.window.notify("error", `Tandem: ${errorText(error)}`);
  }

  /** Owned until the scope is disposed (last registered, first disposed). */
  register<T extends DisposableLike>(value: T): T {
    this.owned.push(value);
    return value;
  }

  /**
   * Releases the per-task services once the task is over: its participants (the last first),
   * what was registered, its commands (background ones end, the temp folder goes), the mode;
   * then everything announced is saved. Never rejects.
   */
  async dispose(): Promise<void> {
    await this.joined.dispose((error) => this.report(error));
    for (const item of this.owned.splice(0).reverse()) {
      try {
        await item.dispose();
      } catch (error) {
        this.report(error);
      }
    }
    this.commands.dispose();
    this.mode.dispose();
    await this.messages.close().catch((error: unknown) => this.report(error));
    await this.mode.flush();
  }
}
