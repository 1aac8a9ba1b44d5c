/**
 * The chat panel (`tandem.chatView`): serves the React app from webview-ui/dist under a strict
 * CSP, routes the page's messages to the session, and posts the session's messages back through
 * the outbox (dropped or kept while no page listens, see webview-outbox.ts). When the first page
 * of this host is created, it reopens the task a window reload interrupted
 * (interrupted-task-memory.ts) at once, while the page loads; the page shows "Restoring…" from its
 * first paint (the HTML says so) until that task's chat is there.
 */
import { existsSync } from "node:fs";
import * as vscode from "vscode";
import type { ToWebviewMessage } from "../../shared/protocol";
import { Disposable, type DisposableLike } from "../../core/util/disposable";
import { checkIncomingMessage } from "./incoming-message";
import { InterruptedTaskMemory, type TaskMemento } from "./interrupted-task-memory";
import type { SessionHolder } from "./session-holder";
import { buildMissingBuildHtml, buildWebviewHtml } from "./webview-html";
import { WebviewOutbox } from "./webview-outbox";
import { errorText } from "../../core/util/error-text";

export const CHAT_VIEW_ID = "tandem.chatView";

export class ChatViewProvider extends Disposable implements vscode.WebviewViewProvider {
  private readonly outbox = new WebviewOutbox();
  /** Subscriptions of the current page; replaced when the view is resolved again. */
  private pageSubscriptions: DisposableLike[] = [];
  /** The view of the current page, to tell whether the person can see it. */
  private shownView: vscode.WebviewView | undefined;
  private readonly interrupted: InterruptedTaskMemory | undefined;
  /** The interrupted task is reopened once per host, when the first page is created. */
  private restoreChecked = false;
  /** Told after each page got its full state: what the session's state does not carry (the sandbox). */
  private readonly pageReadyListeners = new Set<() => void>();

  /** @param workspaceState  where the running task's id is kept for a window reload (none: not kept) */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly sessions: SessionHolder,
    private readonly log: vscode.LogOutputChannel,
    workspaceState?: TaskMemento,
  ) {
    super();
    this._register({ dispose: () => this.disposePage() });
    if (workspaceState) {
      const memory = new InterruptedTaskMemory(workspaceState, (text) => log.warn(text));
      sessions.onWillDispose(() => memory.hostEnding());
      this.interrupted = memory;
    }
  }

  /** The session's `post`. */
  post(message: ToWebviewMessage): void {
    this.outbox.post(message);
  }

  /** The session's `runningTaskChanged`: which task a window reload would interrupt. */
  runningTaskChanged(taskId: string | undefined): void {
    this.interrupted?.runningTaskChanged(taskId);
  }

  /** Called each time a page has received the full state. */
  onPageReady(listener: () => void): DisposableLike {
    this.pageReadyListeners.add(listener);
    return { dispose: () => this.pageReadyListeners.delete(listener) };
  }

  /** Whether the panel is on screen now (a hidden one still gets messages, but nobody sees them). */
  get visible(): boolean {
    return this.shownView?.visible ?? false;
  }

  /** Opens the Tandem side bar on the chat view (resolving it if it never was). */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposePage();
    const distRoot = vscode.Uri.joinPath(this.extensionUri, "webview-ui", "dist");
    const assets = vscode.Uri.joinPath(distRoot, "assets");
    const script = vscode.Uri.joinPath(assets, "index.js");
    const style = vscode.Uri.joinPath(assets, "index.css");
    view.webview.options = { enableScripts: true, localResourceRoots: [distRoot] };
    if (!existsSync(script.fsPath)) {
      this.log.error(`The chat panel's build is missing (${script.fsPath}); run "npm run build:webview".`);
      view.webview.html = buildMissingBuildHtml(view.webview.cspSource, script.fsPath);
      return;
    }
    const reopening = this.interruptedTaskToReopen();
    view.webview.html = buildWebviewHtml(
      {
        cspSource: view.webview.cspSource,
        scriptUri: view.webview.asWebviewUri(script).toString(),
        styleUri: view.webview.asWebviewUri(style).toString(),
      },
      { restoring: reopening !== undefined },
    );
    const sink = (message: ToWebviewMessage) => this.deliver(view, message);
    this.outbox.attach(sink);
    this.shownView = view;
    this.pageSubscriptions = [
      { dispose: () => (this.shownView = this.shownView === view ? undefined : this.shownView) },
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidDispose(() => {
        this.outbox.detach(sink);
        this.disposePage();
      }),
      { dispose: () => this.outbox.detach(sink) },
    ];
    // Not after the page says "ready": loading the core and the task overlaps the page's own load.
    if (reopening) void this.reopenInterruptedTask(reopening);
  }

  private receive(raw: unknown): void {
    const check = checkIncomingMessage(raw);
    if (!check.ok) {
      this.log.warn(`Ignored a message from the chat panel: ${check.reason}.`);
      return;
    }
    const { message } = check;
    void (async () => {
      try {
        const session = await this.sessions.get();
        if (message.type === "ready") this.outbox.open();
        await session.handle(message);
        // Requests made before the page listened go after the full state, so they act on it.
        if (message.type === "ready") this.outbox.flushWaiting();
        if (message.type === "ready") for (const listener of [...this.pageReadyListeners]) listener();
      } catch (error) {
        const text = errorText(error);
        this.log.error(`Handling "${message.type}" from the chat panel failed: ${text}`);
        void vscode.window.showErrorMessage(`Tandem: ${text}`);
      }
    })();
  }

  /** The id of the task a reload interrupted, the first time a page is created in this host; else undefined. */
  private interruptedTaskToReopen(): string | undefined {
    if (this.restoreChecked || !this.interrupted) return undefined;
    this.restoreChecked = true;
    return this.interrupted.remembered();
  }

  /** The task a reload interrupted comes back with its chat and a "Resume Task" question. */
  private async reopenInterruptedTask(id: string): Promise<void> {
    try {
      const session = await this.sessions.get();
      this.log.info(`Reopening task ${id}, which was running when the window closed.`);
      // The session reported a failure (e.g. the task was deleted) to the panel: do not retry it on every reload.
      if (!(await session.reopenInterruptedTask(id))) this.interrupted?.forget();
    } catch (error) {
      const text = errorText(error);
      this.log.error(`Reopening the interrupted task ${id} failed: ${text}`);
      this.post({ type: "restoring", restoring: false });
      void vscode.window.showErrorMessage(`Tandem: ${text}`);
    }
  }

  private deliver(view: vscode.WebviewView, message: ToWebviewMessage): void {
    view.webview.postMessage(message).then(
      (delivered) => {
        if (!delivered) this.log.debug(`The chat panel did not take a "${message.type}" message (it is not visible).`);
      },
      (error: unknown) => this.log.warn(`Posting "${message.type}" to the chat panel failed: ${String(error)}`),
    );
  }

  private disposePage(): void {
    const subscriptions = this.pageSubscriptions;
    this.pageSubscriptions = [];
    for (const subscription of subscriptions) void subscription.dispose();
  }
}
