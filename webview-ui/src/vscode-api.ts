/**
 * The panel's only way out: VS Code's webview API, typed with the shared protocol. Outside a
 * webview (tests, `vite preview`) a memory stand-in records what would have been posted.
 */
import type { FromWebviewMessage } from "../../src/shared/protocol";

export interface VsCodeApi {
  postMessage(message: FromWebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** The stand-in: keeps posted messages and the saved state in memory. */
export interface MemoryVsCodeApi extends VsCodeApi {
  readonly posted: FromWebviewMessage[];
}

export function createMemoryApi(initialState?: unknown): MemoryVsCodeApi {
  let state = initialState;
  const posted: FromWebviewMessage[] = [];
  return {
    posted,
    postMessage: (message) => void posted.push(message),
    getState: () => state,
    setState: (next) => {
      state = next;
    },
  };
}

declare global {
  // Injected by VS Code into webviews; may be called only once per page.
  var acquireVsCodeApi: (() => VsCodeApi) | undefined;
}

let api: VsCodeApi | undefined;

/** The page's API, acquired once; the memory stand-in when not running inside VS Code. */
export function getVsCodeApi(): VsCodeApi {
  if (!api) api = typeof globalThis.acquireVsCodeApi === "function" ? globalThis.acquireVsCodeApi() : createMemoryApi();
  return api;
}
