/**
 * Answers the task's questions, each exactly once: at the terminal by asking the person, or
 * unattended by a fixed policy. An ask row is announced again when its outcome is recorded (and
 * a tool preview turns into an ask in place), so questions are keyed by their timestamp.
 */
import type { AskMessage, AskResponse, ChatMessage } from "../shared/messages";
import { askOnTerminal, isResultsCommand } from "./terminal-questions";
import type { TerminalScreen } from "./terminal-screen";

export interface AnswererOptions {
  /** The person at the terminal; undefined when nobody can be asked. */
  readonly screen: TerminalScreen | undefined;
  readonly yolo: boolean;
  /** `--resume`: the person already said to go on, perhaps with a message. */
  readonly resumeMessage?: string;
  /** Delivers the answer to the question asked in row `questionId` (the Controller). */
  answer(questionId: number, response: AskResponse): void;
  /** Unattended, a tool or command was refused: the run stops there. */
  onRefused(message: AskMessage): void;
  /** Notes for the person (stderr). */
  note(text: string): void;
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

  /** Every added or updated chat message passes here. */
  seen(message: ChatMessage): void {
    if (message.type === "say" ? message.say === "command" : message.ask === "command") this.resultsCommandRuns = isResultsCommand(message);
    if (message.type !== "ask" || message.partial) return;
    // Answered or cancelled elsewhere (Ctrl-C): the prompt is moot.
    if (message.outcome !== undefined) return this.endPrompt(message.ts);
    if (this.handled.has(message.ts)) return;
    this.handled.add(message.ts);
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

  /** A withdrawn question leaves the chat (a command ended before anyone answered "still running"). */
  removed(timestamps: readonly number[]): void {
    const open = this.open?.message;
    if (!open || !timestamps.includes(open.ts)) return;
    this.endPrompt(open.ts, open.ask === "command_output" ? "(The command ended: no need to answer.)" : "(The question was taken back.)");
  }

  private async askPerson(screen: TerminalScreen, message: AskMessage): Promise<void> {
    const stop = new AbortController();
    this.open = { message, stop };
    try {
      const reply = await askOnTerminal(screen, message, stop.signal);
      if (reply === "wait") this.options.note("Waiting for the command to end (Ctrl-C cancels the task).");
      else this.options.answer(message.ts, reply);
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
