/** What every component may reach: the host API and the state store. */
import { createContext, useContext } from "react";
import type { VsCodeApi } from "../vscode-api";
import type { ExtensionStore } from "./extension-store";

export interface Panel {
  readonly api: VsCodeApi;
  readonly store: ExtensionStore;
}

export const PanelContext = createContext<Panel | undefined>(undefined);

export function usePanel(): Panel {
  const panel = useContext(PanelContext);
  if (!panel) throw new Error("Tandem webview: a component was rendered outside <PanelContext.Provider>");
  return panel;
}
