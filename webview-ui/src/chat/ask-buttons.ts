/**
 * The buttons of the open question (Cline's labels) and the protocol messages each one sends. The
 * host says which answers the question takes; this only names them. Pure, so the mapping is tested
 * without rendering.
 */
import type { AskKind } from "../../../src/shared/messages";
import type { AnswerChoice, FromWebviewMessage, OpenQuestion, QuestionAnswers } from "../../../src/shared/protocol";

export interface AskAction {
  readonly choice: AnswerChoice;
  /** A followup option: the reply's text. */
  readonly text?: string;
  /** Sends what the input box holds along with the choice, as feedback. */
  readonly carriesInput: boolean;
  /** Drops the task once answered. */
  readonly startsNewTask: boolean;
}

export interface AskButton {
  readonly label: string;
  readonly primary: boolean;
  readonly action: AskAction;
  /** What pressing it does, when the label alone does not say (shown under the buttons, and the button's description). */
  readonly description?: string;
}

interface ButtonSpec {
  readonly label: string;
  readonly description?: string;
  readonly primary?: boolean;
  readonly carriesInput?: boolean;
  readonly startsNewTask?: boolean;
}

/** Every choice of every kind has its button; a typed reply goes through the input box instead. */
type ButtonsOf = { readonly [K in AskKind]: { readonly [C in Exclude<QuestionAnswers[K], "reply">]: ButtonSpec } };

const BUTTONS: ButtonsOf = {
  followup: {},
  tool: { approve: { label: "Approve", primary: true, carriesInput: true }, reject: { label: "Reject", carriesInput: true } },
  command: {
    run: { label: "Run", primary: true, carriesInput: true },
    reject: { label: "Reject", carriesInput: true },
    // The result's suggested command is optional: typed text is a reply to the result.
    skip: { label: "Skip", carriesInput: true },
  },
  command_output: { proceed: { label: "Proceed While Running", primary: true }, kill: { label: "Kill Command" } },
  completion_result: { accept: { label: "Start New Task", primary: true, startsNewTask: true } },
  api_req_failed: { retry: { label: "Retry", primary: true }, stop: { label: "Start New Task", startsNewTask: true } },
  mistake_limit_reached: { proceed: { label: "Proceed Anyway", primary: true }, stop: { label: "Start New Task", startsNewTask: true } },
  spend_limit_reached: { proceed: { label: "Continue Once", primary: true }, raise: { label: "Raise the Cap" }, stop: { label: "Stop" } },
  new_task: { accept: { label: "Start New Task with this context", primary: true }, decline: { label: "Decline" } },
  resume_task: { resume: { label: "Resume Task", primary: true } },
  plan_mode_respond: {
    accept: {
      label: "Finish with this plan",
      description: "Finish with this plan ends the task here, with the plan as its result: nothing is changed or run. To have Tandem carry it out, switch to Act.",
    },
  },
};

/** The kinds whose row carries the model's own answers to pick (`options`), each a reply. */
export const OFFERS_OPTIONS: ReadonlySet<AskKind> = new Set(["followup", "plan_mode_respond"]);

/** The buttons for `question`, in the host's order; a followup's (and a plan's) options come first. */
export function askButtons(question: OpenQuestion, options: readonly string[] = []): AskButton[] {
  const picks: AskButton[] = OFFERS_OPTIONS.has(question.kind)
    ? options.map((text) => ({ label: text, primary: false, action: { choice: "reply", text, carriesInput: false, startsNewTask: false } }))
    : [];
  const specs: Readonly<Partial<Record<AnswerChoice, ButtonSpec>>> = BUTTONS[question.kind];
  return [...picks, ...question.answers.flatMap((choice) => {
    const spec = specs[choice];
    if (!spec) return [];
    const action = { choice, carriesInput: spec.carriesInput ?? false, startsNewTask: spec.startsNewTask ?? false };
    return [{ label: spec.label, primary: spec.primary ?? false, action, ...(spec.description ? { description: spec.description } : {}) }];
  })];
}

/** Whether typing answers `question`: the host lists `reply` among its answers. */
export function takesReply(question: OpenQuestion | undefined): boolean {
  return (question?.answers as readonly AnswerChoice[] | undefined)?.includes("reply") ?? false;
}

export interface InputContent {
  readonly text: string;
  readonly images: readonly string[];
}

export interface ActionResult {
  readonly messages: FromWebviewMessage[];
  /** Whether the input box's content went out with the answer (so the box should be cleared). */
  readonly consumedInput: boolean;
}

/** The messages a button of `question` sends, given what the input box holds when it is pressed. */
export function actionMessages(question: OpenQuestion, action: AskAction, input: InputContent): ActionResult {
  const text = input.text.trim();
  const sendsInput = action.carriesInput && (text.length > 0 || input.images.length > 0);
  const typed = sendsInput ? { text, images: [...input.images] } : {};
  const answer: FromWebviewMessage = {
    type: "answer",
    answer: { questionId: question.id, choice: action.choice, ...(action.text === undefined ? typed : { text: action.text }) },
  };
  const messages: FromWebviewMessage[] = action.startsNewTask ? [answer, { type: "clearTask" }] : [answer];
  return { messages, consumedInput: sendsInput };
}

/** The message that answers `question` with what was typed. */
export function replyMessage(question: OpenQuestion, input: InputContent): FromWebviewMessage {
  return { type: "answer", answer: { questionId: question.id, choice: "reply", text: input.text, images: [...input.images] } };
}
