/**
 * The History view opened in a DOM, timed, for bench/history.bench.ts (which installs jsdom first):
 * the panel is rendered with a state on the chat, then History is opened as the title-bar button
 * opens it, until its rows are in the page. For the baseline, the list as it was before: every
 * entry in the page at once. Not part of the webview's bundle.
 */
import * as React from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { VirtuosoMockContext } from "react-virtuoso";
import type { WebviewState } from "../../../src/shared/protocol";
import { App } from "../App";
import { HistoryEntry } from "../history/HistoryEntry";
import { ExtensionStore } from "../state/extension-store";
import { PanelContext } from "../state/panel-context";
import { createMemoryApi } from "../vscode-api";

// Under the bench's loader the components compile with the classic JSX transform, which names React.
(globalThis as { React?: unknown }).React = React;

/** Opens History over a panel holding `state`: the ms until its rows are in the page, and how many. */
export async function openHistoryTimed(state: WebviewState, virtualized: boolean): Promise<{ ms: number; rows: number }> {
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  const store = new ExtensionStore();
  const api = createMemoryApi();
  // react-virtuoso is told the view's size, as it would measure it in a page that lays out.
  flushSync(() => {
    store.apply({ type: "state", state });
    root.render(React.createElement(VirtuosoMockContext.Provider, { value: { viewportHeight: 800, itemHeight: 110 } }, React.createElement(App, { api, store })));
  });
  const before = () => {
    const items = [...state.history].sort((a, b) => b.startedAt - a.startedAt);
    const entries = items.map((item) => React.createElement("li", { key: item.id }, React.createElement(HistoryEntry, { item, isOpen: false, onResumed: () => undefined })));
    return React.createElement(PanelContext.Provider, { value: { api, store } }, React.createElement("ul", null, entries));
  };
  const rows = () => container.querySelectorAll(".history-entry").length;
  try {
    const started = performance.now();
    flushSync(() => (virtualized ? store.setView("history") : root.render(before())));
    // The list renders its rows in an effect after its first pass.
    while (rows() === 0 && performance.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 0));
    return { ms: performance.now() - started, rows: rows() };
  } finally {
    flushSync(() => root.unmount());
    container.remove();
  }
}
