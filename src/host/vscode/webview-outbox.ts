/**
 * Decides what happens to a message for the webview. State is resent in full when the page says
 * "ready", so state deltas posted while no page listens are dropped. Requests such as "show the
 * settings" or "insert this text" are not part of that state: they wait until the page is ready,
 * or a command run before the panel ever opened would be lost.
 */
import type { ToWebviewMessage } from "../../shared/protocol";

/** Messages that are requests, not state: kept until the page can act on them. */
const WAITS_FOR_PAGE: ReadonlySet<ToWebviewMessage["type"]> = new Set(["showView", "focusInput", "focusQuestion", "insertText", "notice"]);

/** Enough for any burst of commands; older requests beyond it are stale anyway. */
const MAX_WAITING = 20;

export class WebviewOutbox {
  private sink: ((message: ToWebviewMessage) => void) | undefined;
  private ready = false;
  private waiting: ToWebviewMessage[] = [];

  /** A page was created; it is not listening until it says "ready". */
  attach(sink: (message: ToWebviewMessage) => void): void {
    this.sink = sink;
    this.ready = false;
  }

  /** The page is gone (the view was closed or moved). */
  detach(sink: (message: ToWebviewMessage) => void): void {
    if (this.sink !== sink) return; // a newer page already replaced it
    this.sink = undefined;
    this.ready = false;
  }

  /** The page listens: from now on messages go straight through. */
  open(): void {
    this.ready = this.sink !== undefined;
  }

  /** Delivers the requests that waited (call after the full state went out). */
  flushWaiting(): void {
    if (!this.ready || !this.sink) return;
    const waiting = this.waiting;
    this.waiting = [];
    for (const message of waiting) this.sink(message);
  }

  post(message: ToWebviewMessage): void {
    if (this.ready && this.sink) {
      this.sink(message);
      return;
    }
    if (!WAITS_FOR_PAGE.has(message.type)) return;
    this.waiting.push(message);
    if (this.waiting.length > MAX_WAITING) this.waiting.shift();
  }
}
