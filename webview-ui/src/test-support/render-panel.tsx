/** Renders the whole panel against a memory stand-in for VS Code, and plays the host's part. */
import { act, render, type RenderResult } from "@testing-library/react";
import { VirtuosoMockContext } from "react-virtuoso";
import type { FromWebviewMessage, ToWebviewMessage, WebviewState } from "../../../src/shared/protocol";
import { App } from "../App";
import { ExtensionStore } from "../state/extension-store";
import { createMemoryApi, type MemoryVsCodeApi } from "../vscode-api";

export interface PanelHarness extends RenderResult {
  api: MemoryVsCodeApi;
  store: ExtensionStore;
  /** Delivers a message from the host as VS Code does: a `message` event on the window. */
  send(message: ToWebviewMessage): void;
  /**
   * Posted messages other than the page's requests for what the host holds: `ready`, the
   * checkpoint store's measuring and the rules list that opening the settings asks for, and the
   * empty search that opening History warms the host's search with (read `api.posted` for those).
   */
  posted(): FromWebviewMessage[];
}

export function renderPanel(state?: WebviewState, savedState?: unknown): PanelHarness {
  const api = createMemoryApi(savedState);
  const store = new ExtensionStore();
  const result = render(
    // Virtuoso measures nothing in jsdom; the mock context gives it a tall viewport so all rows render.
    <VirtuosoMockContext.Provider value={{ viewportHeight: 100_000, itemHeight: 40 }}>
      <App api={api} store={store} />
    </VirtuosoMockContext.Provider>,
  );
  const send = (message: ToWebviewMessage) =>
    act(() => {
      window.dispatchEvent(new MessageEvent("message", { data: message }));
    });
  if (state) send({ type: "state", state });
  const isRequest = (message: FromWebviewMessage) =>
    message.type === "ready" || message.type === "rules" || (message.type === "checkpointStore" && message.action === "measure") || (message.type === "searchHistory" && message.query === "");
  return { ...result, api, store, send, posted: () => api.posted.filter((message) => !isRequest(message)) };
}
