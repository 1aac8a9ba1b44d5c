/**
 * VS Code's side of a notification (the core decides when, and its words): shown only while the
 * window is not focused and `tandem.notifications.enabled` allows, as VS Code's own notification,
 * which the desktop raises to the OS while the window is in the background. Its one button, "Show",
 * opens the panel on the chat and moves the keyboard to the question's answers if it is still open
 * (else to the input box: answered meanwhile, the click does no harm). No `vscode` import: the
 * editor's parts are handed in, so the decision is tested in plain Node with the focus given.
 */
import { noticeText, type Notice } from "../../shared/notice";
import type { SessionHolder } from "./session-holder";
import type { ChatViewProvider } from "./webview-provider";

/** The button's label: what it does, short enough for the OS notification too. */
export const SHOW = "Show";

export interface ToastDeps {
  /** `vscode.window.state.focused`. */
  focused(): boolean;
  /** `tandem.notifications.enabled`. */
  enabled(): boolean;
  /** `vscode.window.showInformationMessage(text, button)`: resolves with the button pressed, if any. */
  show(text: string, button: string): PromiseLike<string | undefined>;
  /** Opens the panel's chat and focuses the question (`questionId` of task `taskId`) if it is still open, else the input. */
  goTo(notice: Notice): Promise<void>;
  report(error: unknown): void;
}

export class AttentionToasts {
  constructor(private readonly deps: ToastDeps) {}

  /** Shows the notice unless the person is looking at the window; returns whether it was shown. */
  notify(notice: Notice): boolean {
    if (!this.deps.enabled() || this.deps.focused()) return false;
    Promise.resolve(this.deps.show(withoutLinks(noticeText(notice)), SHOW))
      .then((choice) => (choice === SHOW ? this.deps.goTo(notice) : undefined))
      .catch((error: unknown) => this.deps.report(error));
    return true;
  }
}

/**
 * VS Code makes `[label](target)` in a notification a link (a `command:` one included): the words
 * come partly from the model (a path, a command), so that form is broken up before it is shown.
 */
export function withoutLinks(text: string): string {
  return text.replaceAll("](", "] (");
}

/** "Show": the panel on the chat, the keyboard on the question if it is still open, else on the input box. */
export async function showNotice(view: Pick<ChatViewProvider, "reveal">, sessions: Pick<SessionHolder, "get">, notice: Notice): Promise<void> {
  await view.reveal();
  const session = await sessions.get();
  session.showView("chat");
  if (notice.questionId === undefined || !session.focusQuestion(notice.taskId, notice.questionId)) session.focusInput();
}
