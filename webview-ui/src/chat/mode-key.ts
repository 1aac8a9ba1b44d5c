/**
 * Ctrl+Shift+A (Cmd+Shift+A on a Mac) switches Plan/Act with the focus inside the panel. The
 * panel takes the key itself: VS Code forwards a webview's keys to the workbench only after the
 * browser has seen them, too late to keep a browser's own Ctrl+Shift+A (Chromium's tab search)
 * from taking it in code-server; so the key is stopped here, before the webview's forwarding
 * listener on `window`, and `tandem.toggleMode`'s keybinding is left to the rest of the view.
 */
import type { AgentMode } from "../../../src/shared/settings";

/** The parts of a keyboard event the check reads. */
export interface KeyPress {
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
  readonly isComposing?: boolean;
}

export function isModeKey(event: KeyPress): boolean {
  return event.code === "KeyA" && event.shiftKey && !event.altKey && event.ctrlKey !== event.metaKey && !event.isComposing;
}

export function otherMode(mode: AgentMode): AgentMode {
  return mode === "plan" ? "act" : "plan";
}

/** Listens on `target` (the panel's document) until the returned function is called. */
export function listenForModeKey(target: Pick<Document, "addEventListener" | "removeEventListener">, toggle: () => void): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (!isModeKey(event)) return;
    event.preventDefault();
    event.stopPropagation();
    toggle();
  };
  target.addEventListener("keydown", onKeyDown);
  return () => target.removeEventListener("keydown", onKeyDown);
}
