import "@vscode/codicons/dist/codicon.css";
import "./styles/base.css";
import "./styles/chat.css";
import "./styles/rows.css";
import "./styles/highlight.css";
import "./styles/forms.css";
import "./styles/mcp.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";

const container = document.getElementById("root");
if (!container) throw new Error("Tandem webview: #root element is missing from the page");
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
