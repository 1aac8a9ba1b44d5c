import { useState } from "react";
import { ChatView } from "./chat/ChatView";
import { MissingKeyBanner } from "./components/MissingKeyBanner";
import { NoticeBanner } from "./components/NoticeBanner";
import { HistoryView } from "./history/HistoryView";
import { Elicitations } from "./mcp/ElicitationForm";
import { McpView } from "./mcp/McpView";
import { SettingsView } from "./settings/SettingsView";
import { ExtensionStore } from "./state/extension-store";
import { PanelContext, usePanel, type Panel } from "./state/panel-context";
import { useExtensionState, useHostConnection } from "./use-extension-state";
import { getVsCodeApi, type VsCodeApi } from "./vscode-api";

/** The panel. Tests pass their own API stand-in and store; the webview uses VS Code's. */
export function App({ api, store }: { api?: VsCodeApi; store?: ExtensionStore }) {
  const [panel] = useState<Panel>(() => ({ api: api ?? getVsCodeApi(), store: store ?? new ExtensionStore() }));
  useHostConnection(panel.api, panel.store);
  return (
    <PanelContext.Provider value={panel}>
      <Views />
    </PanelContext.Provider>
  );
}

function Views() {
  const { store } = usePanel();
  const view = useExtensionState((state) => state.view);
  const toChat = () => store.setView("chat");
  // No in-panel toolbar: the view's title bar (package.json) opens history, MCP servers and settings through the
  // host's showView, and each of those views has its own Done button back to the chat.
  return (
    <main className="panel">
      <NoticeBanner />
      <MissingKeyBanner />
      <Elicitations />
      {/* The chat stays mounted (hidden) so its scroll position and draft survive a visit to settings. */}
      <div className="view-slot" hidden={view !== "chat"}>
        <ChatView />
      </div>
      {view === "settings" && <SettingsView onDone={toChat} />}
      {view === "history" && <HistoryView onDone={toChat} />}
      {view === "mcp" && <McpView onDone={toChat} />}
    </main>
  );
}
