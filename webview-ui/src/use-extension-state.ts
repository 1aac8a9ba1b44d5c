/**
 * Hooks over the ExtensionStore (whose `apply` is the reducer for ToWebviewMessages): connecting it
 * to the host's messages, and reading slices of it so each component re-renders only for its slice.
 */
import { useCallback, useEffect, useSyncExternalStore } from "react";
import type { ChatMessage } from "../../src/shared/messages";
import type { FromWebviewMessage, ToWebviewMessage } from "../../src/shared/protocol";
import type { ExtensionStore } from "./state/extension-store";
import type { PanelState } from "./state/panel-state";
import { usePanel } from "./state/panel-context";
import type { VsCodeApi } from "./vscode-api";

const greeted = new WeakSet<VsCodeApi>();

function isHostMessage(data: unknown): data is ToWebviewMessage {
  return typeof data === "object" && data !== null && typeof (data as { type?: unknown }).type === "string";
}

/** Feeds the host's messages into the store and says `ready` once, when first mounted. */
export function useHostConnection(api: VsCodeApi, store: ExtensionStore): void {
  useEffect(() => {
    const onMessage = (event: MessageEvent<unknown>) => {
      if (!isHostMessage(event.data)) {
        console.error("Tandem webview: ignored a message without a string `type`:", event.data);
        return;
      }
      try {
        store.apply(event.data);
      } catch (error) {
        console.error("Tandem webview: could not apply a host message:", error, event.data);
      }
    };
    window.addEventListener("message", onMessage);
    if (!greeted.has(api)) {
      greeted.add(api);
      api.postMessage({ type: "ready" });
    }
    return () => window.removeEventListener("message", onMessage);
  }, [api, store]);
}

/** A slice of the panel state; the selector must return a stored value, not a fresh object. */
export function useExtensionState<T>(select: (state: PanelState) => T): T {
  const { store } = usePanel();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

/** One chat message, re-rendering only when that message changes. */
export function useChatMessage(ts: number): ChatMessage | undefined {
  const { store } = usePanel();
  const subscribe = useCallback((listener: () => void) => store.subscribeMessage(ts, listener), [store, ts]);
  return useSyncExternalStore(subscribe, () => store.getMessage(ts));
}

export function usePost(): (message: FromWebviewMessage) => void {
  const { api } = usePanel();
  return useCallback((message: FromWebviewMessage) => api.postMessage(message), [api]);
}

/**
 * The task's first row (its prompt), which carries the checkpoint of the workspace as the task
 * found it; re-renders when the list's first row changes or that row is updated.
 */
export function useFirstMessage(): ChatMessage | undefined {
  const { store } = usePanel();
  const ts = useExtensionState(() => store.messageAt(0)?.ts);
  return useChatMessage(ts ?? Number.NaN);
}

/**
 * A checkpoint may be restored while the task waits for the person (a question is open) or is not
 * running, never mid-round; the host refuses the other cases too, with a notice.
 */
export function useCanRestore(): boolean {
  return useExtensionState((state) => state.question !== undefined || !state.running);
}
