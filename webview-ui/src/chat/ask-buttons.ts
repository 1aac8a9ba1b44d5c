/**
 * Which buttons an open ask offers (Cline's set) and the protocol messages each one sends. Pure, so
 * the mapping is tested without rendering.
 */
import type { AskKind, AskMessage, AskResponse } from "../../../src/shared/messages";
import type { FromWebviewMessage } from "../../../src/shared/protocol";

export type AskAction =
  /** Answer yes; `carriesInput` sends what the input box holds along with it. */
  | { readonly kind: "yes"; readonly carriesInput: boolean }
  | { readonly kind: "no"; readonly carriesInput: boolean }
  /** Decline the ask, then drop the task. */
  | { readonly kind: "startNewTask" }
  /** A followup option, sent as the person's message. */
  | { readonly kind: "option"; readonly text: string };

export interface AskButton {
  readonly label: string;
  readonly primary: boolean;
  readonly action: AskAction;
}

const yes = (label: string, carriesInput = false): AskButton => ({ label, primary: true, action: { kind: "yes", carriesInput } });
const no = (label: string, carriesInput = false): AskButton => ({ label, primary: false, action: { kind: "no", carriesInput } });
const startNewTask = (primary: boolean): AskButton => ({ label: "Start New Task", primary, action: { kind: "startNewTask" } });

export function askButtons(ask: Pick<AskMessage, "ask" | "options" | "tool">): AskButton[] {
  const kind: AskKind = ask.ask;
  switch (kind) {
    case "tool":
      return [yes("Approve", true), no("Reject", true)];
    case "command":
      // The result's suggested command is optional: not running it skips it (typed text is a reply to the result).
      if (ask.tool?.tool === "attempt_completion") return [yes("Run", true), no("Skip", true)];
      return [yes("Run", true), no("Reject", true)];
    case "command_output":
      return [yes("Proceed While Running")];
    case "api_req_failed":
      return [yes("Retry"), startNewTask(false)];
    case "mistake_limit_reached":
      return [yes("Proceed Anyway"), startNewTask(false)];
    case "completion_result":
      return [startNewTask(true)];
    case "resume_task":
      return [yes("Resume Task")];
    case "new_task":
      return [yes("Start New Task with this context"), no("Decline")];
    case "followup":
      return (ask.options ?? []).map((text) => ({ label: text, primary: false, action: { kind: "option", text } }));
  }
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

function answer(response: AskResponse): FromWebviewMessage {
  return { type: "askResponse", response };
}

/** The messages a button sends, given what the input box holds when it is pressed. */
export function actionMessages(action: AskAction, input: InputContent): ActionResult {
  const text = input.text.trim();
  const hasInput = text.length > 0 || input.images.length > 0;
  switch (action.kind) {
    case "yes":
    case "no": {
      if (action.carriesInput && hasInput) {
        return { messages: [answer({ type: action.kind, text, images: [...input.images] })], consumedInput: true };
      }
      return { messages: [answer({ type: action.kind })], consumedInput: false };
    }
    case "startNewTask":
      return { messages: [answer({ type: "no" }), { type: "clearTask" }], consumedInput: false };
    case "option":
      return { messages: [answer({ type: "message", text: action.text })], consumedInput: false };
  }
}
