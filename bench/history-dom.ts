/**
 * A DOM for the History bench: jsdom's window as the globals React, Lit and the elements expect,
 * with the browser APIs jsdom lacks stubbed as the webview tests stub them (webview-ui/vitest.setup.ts),
 * and React's production build, as the webview bundle has it. jsdom lays nothing out: what the
 * view's timing measures is the page's JavaScript (React, the list, the DOM it builds), not layout
 * or paint. The view itself is rendered by webview-ui/src/test-support/history-bench.ts, which the
 * webview's own tsconfig checks (DOM, JSX).
 */
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { WebviewState } from "../src/shared/protocol";

interface HistoryBench {
  openHistoryTimed(state: WebviewState, virtualized: boolean): Promise<{ ms: number; rows: number }>;
}

let bench: Promise<HistoryBench> | undefined;

/** Opens History over a panel holding `state`, in jsdom: the ms until its rows are in the page, and how many. */
export async function openHistory(state: WebviewState, options: { virtualized: boolean }): Promise<{ ms: number; rows: number }> {
  bench ??= load();
  return (await bench).openHistoryTimed(state, options.virtualized);
}

async function load(): Promise<HistoryBench> {
  process.env.NODE_ENV ??= "production";
  // By name, not a literal: no type declarations ship with jsdom, and this bench needs none of them.
  const jsdomModule = "jsdom";
  const { JSDOM } = (await import(jsdomModule)) as { JSDOM: new (html: string, options: object) => { window: Record<string, unknown> & { document: unknown; navigator: unknown } } };
  const { window } = new JSDOM("<!doctype html><html><body></body></html>", { pretendToBeVisual: true, url: "http://localhost/" });
  const g = globalThis as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(window)) if (!(key in g)) g[key] = window[key];
  Object.assign(g, { window, document: window.document, navigator: window.navigator });
  const prototypeOf = (name: string) => (window[name] as { prototype: Record<string, unknown> }).prototype;
  const internals = prototypeOf("ElementInternals");
  for (const name of ["setFormValue", "setValidity"]) internals[name] ??= () => undefined;
  // vscode-single-select reads its options' labels through innerText, which jsdom lacks.
  Object.defineProperty(prototypeOf("HTMLElement"), "innerText", {
    get(this: { textContent: string | null }) {
      return this.textContent ?? "";
    },
    configurable: true,
  });
  g.ResizeObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
  g.litIssuedWarnings = new Set(["dev-mode"]);
  const harness = join(fileURLToPath(new URL(".", import.meta.url)), "..", "webview-ui", "src", "test-support", "history-bench.ts");
  return (await import(pathToFileURL(harness).href)) as HistoryBench;
}
