/**
 * Answers the task's questions, each exactly once: at the terminal by asking the person, or
 * unattended by a fixed policy. What is open is the host's to say (Controller.onDidChangeQuestion,
 * as the panel hears it): a question is keyed by its id, its row (shown just after it is
 * announced) gives the words to print, and a question that closes while it is on the terminal
 * (answered elsewhere, withdrawn, the task cancelled) ends the prompt.
 */
import type { AskMessage, AskResponse, ChatMessage } from "../shared/messages";
import type { OpenQuestion } from "../shared/protocol";
import { getTool } from "../core/task/tools/registry";
import type { AutoApprovalKey } from "../shared/auto-approval";
import { switchName } from "./auto-approve";
import { askOnTerminal, isResultsCommand } from "./terminal-questions";
import type { TerminalScreen } from "./terminal-screen";

export interface AnswererOptions {
  /** The person at the terminal; undefined when nobody can be asked. */
  readonly screen: TerminalScreen | undefined;
  readonly yolo: boolean;
  /** `--resume`: the person already said to go on, perhaps with a message. */
  readonly resumeMessage?: string;
  /** The row that asks question `id`, once it is shown (the Controller's chat). */
  row(id: number): AskMessage | undefined;
  /** Delivers the answer to question `questionId` (the Controller). */
  answer(questionId: number, response: AskResponse): void;
  /** Unattended, a tool or command was refused: the run stops there. */
  onRefused(message: AskMessage): void;
  /** Notes for the person (stderr). */
  note(text: string): void;
  /** Question `id` is put to the person at the terminal now (the bell and --notify hear it). */
  asking?(id: number): void;
}

export class Answerer {
  private readonly handled = new Set<number>();
  /** The question on the terminal right now. */
  private open: { readonly message: AskMessage; readonly stop: AbortController } | undefined;
  private resumeMessage: string | undefined;
  /** The command running now is the result's demo (attempt_completion's `command`). */
  private resultsCommandRuns = false;

  constructor(private readonly options: AnswererOptions) {
    this.resumeMessage = options.resumeMessage;
  }

  /** The host's open question changed: a new one is answered (once), none ends what is on the terminal. */
  questionChanged(question: OpenQuestion | undefined): void {
    // A withdrawn question's row leaves the chat just after it closes: look once it has.
    if (!question) return queueMicrotask(() => this.closed());
    if (this.handled.has(question.id)) return;
    this.handled.add(question.id);
    // Announced before its row is shown: the row follows in the same turn.
    queueMicrotask(() => {
      const message = this.options.row(question.id);
      if (message) this.answerQuestion(message);
      else this.options.note(`tandem: question ${question.id} (${question.kind}) has no row to show; it stays open.`);
    });
  }

  /** Which command runs now (the chat's command rows): a result's demo is let go on unattended. */
  seen(message: ChatMessage): void {
    if (message.type === "say" ? message.say === "command" : message.ask === "command") this.resultsCommandRuns = isResultsCommand(message);
  }

  private answerQuestion(message: AskMessage): void {
    const answer = (response: AskResponse) => this.options.answer(message.ts, response);
    if (message.ask === "resume_task") return answer(this.takeResumeMessage() ?? { type: "yes" });
    // --plan: the plan was printed; taking it as it is ends the run (carried out later with --resume --act).
    if (message.ask === "plan_mode_respond") return answer({ type: "yes" });
    // A completed task reopens on its result's question: the --resume message is the reply to it.
    const reply = message.ask === "completion_result" ? this.takeResumeMessage() : undefined;
    if (reply) return answer(reply);
    if (this.options.screen) return void this.askPerson(this.options.screen, message);
    const response = unattendedAnswer(message, this.options.yolo, this.resultsCommandRuns);
    if (response === undefined) return;
    answer(response);
    if (response.type === "no" && stopsTheTask(message)) this.options.onRefused(message);
  }

  /** The open question closed without the terminal's answer: withdrawn (its row is gone), or answered or cancelled elsewhere. */
  private closed(): void {
    const open = this.open?.message;
    if (!open) return;
    const withdrawn = this.options.row(open.ts) === undefined;
    this.endPrompt(open.ts, withdrawn ? (open.ask === "command_output" ? "(The command ended: no need to answer.)" : "(The question was taken back.)") : undefined);
  }

  private async askPerson(screen: TerminalScreen, message: AskMessage): Promise<void> {
    const stop = new AbortController();
    this.open = { message, stop };
    this.options.asking?.(message.ts);
    try {
      const reply = await askOnTerminal(screen, message, stop.signal);
      if (reply === "wait") this.options.note("Waiting for the command to end (Ctrl-C cancels the task).");
      else {
        // Answered here: its closing is no news for the terminal.
        this.open = undefined;
        this.options.answer(message.ts, reply);
      }
    } catch (error) {
      if (!stop.signal.aborted) throw error;
    } finally {
      if (this.open?.stop === stop) this.open = undefined;
    }
  }

  private endPrompt(ts: number, note?: string): void {
    const open = this.open;
    if (open?.message.ts !== ts) return;
    this.open = undefined;
    // readline ends the prompt's line and drops what was typed: it belonged to the question that is gone.
    open.stop.abort();
    if (note) this.options.note(note);
  }

  /** The --resume message goes with the first question of the resumed task, and only that one. */
  private takeResumeMessage(): AskResponse | undefined {
    const text = this.resumeMessage;
    this.resumeMessage = undefined;
    return text ? { type: "message", text } : undefined;
  }
}

/** A refused edit or command means the work was not done; a result's suggested command is only a demo. */
function stopsTheTask(message: AskMessage): boolean {
  return (message.ask === "tool" || message.ask === "command") && message.tool?.tool !== "attempt_completion";
}

/**
 * Nobody at the keyboard: finish on completion, let the model decide questions, refuse approvals.
 * `resultsCommandRuns`: the command running is the result's demo, which nobody is there to watch.
 */
export function unattendedAnswer(message: AskMessage, yolo: boolean, resultsCommandRuns = false): AskResponse | undefined {
  switch (message.ask) {
    case "completion_result":
      return { type: "yes" };
    case "followup":
      return { type: "message", text: "No one is at the keyboard (unattended run). Decide yourself and continue." };
    // Not answered: the command runs to its end (or its timeout), then the tool takes the question back.
    // A demo (`npm start`) may never end: it goes on in the background and the task finishes.
    case "command_output":
      return resultsCommandRuns ? { type: "yes" } : undefined;
    // Handing over to a fresh task needs no permission: nothing is written or run.
    case "new_task":
      return { type: "yes" };
    case "command":
      // Skipping the result's demo says nothing: any text would be a reply to the result.
      if (isResultsCommand(message)) return { type: "no" };
      return refusal(yolo);
    case "tool":
      return refusal(yolo);
    default:
      return { type: "no" };
  }
}

function refusal(yolo: boolean): AskResponse {
  return { type: "no", text: yolo ? "Not approved: this needs a person even in YOLO mode, and the run is unattended." : "Not approved: unattended run without --yolo." };
}

/** What would have let a refused question through: the switch to add, or why even YOLO asks. */
export function refusalHint(message: AskMessage, yolo: boolean): string {
  // The guard's own files and ignored or secret ones: no switch helps (the question says why).
  if (message.tool?.alwaysAsks) return `${message.tool.why ?? ""} Tandem always asks about this, even with --yolo; run it at a terminal to answer.`.trim();
  if (yolo) return "Tandem asks about this even with --yolo; run it at a terminal to answer.";
  if (message.ask === "command") return `Allow it with --auto-approve ${switchName("executeSafeCommands")} (read-only commands) or ${switchName("executeAllCommands")}, or --yolo.`;
  const outside = message.tool?.outsideWorkspace === true;
  const category = message.tool ? getTool(message.tool.tool)?.approval : undefined;
  const key: AutoApprovalKey =
    category === "read" ? (outside ? "readFilesExternally" : "readFiles") : category === "browser" ? "useBrowser" : category === "mcp" ? "useMcp" : outside ? "editFilesExternally" : "editFiles";
  return `Allow it with --auto-approve ${switchName(key)}, or --yolo.`;
}
