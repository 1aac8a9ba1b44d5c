import "@vscode/codicons/dist/codicon.css";
import "./styles/base.css";
import "./styles/chat.css";
import "./styles/rows.css";
import "./styles/highlight.css";
import "./styles/forms.css";
import "./styles/history.css";
import "./styles/mcp.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { ExtensionStore } from "./state/extension-store";

const container = document.getElementById("root");
if (!container) throw new Error("Tandem webview: #root element is missing from the page");
// The host marks the page it creates while it reopens an interrupted task (webview-html.ts).
const store = new ExtensionStore({ restoring: container.dataset.restoring === "true" });
createRoot(container).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
