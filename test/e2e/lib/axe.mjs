/**
 * axe-core in Tandem's webview. The webview is two nested iframes of another origin than the
 * workbench. AxeBuilder (from @axe-core/playwright) can reach it with a frame path in `include`,
 * but it runs axe in every frame of the page, the whole workbench's DOM included, and a scenario
 * checks dozens of views; so this runs the same axe-core (the one @axe-core/playwright depends
 * on) in the panel's own frame only, found through playwright's frame tree.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { EXTENSION_ID, TOOLS_DIR } from "./paths.mjs";
import { assertToolsInstalled } from "./tools.mjs";

const requireFromTools = createRequire(path.join(TOOLS_DIR, "package.json"));

/** The impacts that fail a check. */
const FAILING = new Set(["serious", "critical"]);

/** WCAG 2.0-2.2 A and AA, and axe's best practices. */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
/** A panel is a part of a page (the workbench's), not a page: it has no <h1>, landmarks, title or lang of its own. */
const NOT_A_PAGE = ["page-has-heading-one", "landmark-one-main", "region", "document-title", "html-has-lang"];

/** axe-core's source, as @axe-core/playwright injects it. */
function axeSource() {
  const axeCore = createRequire(requireFromTools.resolve("@axe-core/playwright"))("axe-core");
  return /** @type {string} */ (axeCore.source);
}

/**
 * The panel's document: the inner iframe (#active-frame) of the outer webview iframe whose URL
 * names Tandem (as workbench.mjs's tandemWebview).
 * @param {import("playwright-core").Page} page
 */
export async function tandemWebviewFrame(page) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const outer of page.frames()) {
      if (!outer.url().includes(`extensionId=${EXTENSION_ID}`)) continue;
      for (const inner of outer.childFrames()) {
        if ((await inner.frameElement().then((element) => element.getAttribute("id")).catch(() => null)) === "active-frame") return inner;
      }
    }
    if (Date.now() > deadline) throw new Error("the Tandem webview's frame is not there (no iframe#active-frame inside Tandem's webview)");
    await page.waitForTimeout(200);
  }
}

/**
 * Runs axe on the Tandem webview as it is now and returns its serious and critical violations,
 * each with the elements it found.
 * @param {import("playwright-core").Page} page
 * @returns {Promise<Array<{ id: string, impact: string, help: string, nodes: Array<{ target: string, summary: string }> }>>}
 */
export async function webviewViolations(page) {
  assertToolsInstalled();
  const frame = await tandemWebviewFrame(page);
  if (!(await frame.evaluate(() => "axe" in window))) await frame.evaluate(axeSource());
  const violations = await frame.evaluate(
    async ({ tags, disabled }) => {
      /* global window, document */
      const axe = /** @type {any} */ (window).axe;
      const results = await axe.run(document, { runOnly: { type: "tag", values: tags }, rules: Object.fromEntries(disabled.map((id) => [id, { enabled: false }])) });
      // WCAG 1.4.3 exempts a control that is disabled; axe cannot tell inside a vscode-* element's shadow root.
      const inDisabledControl = (node) => {
        // A node inside a shadow root has a path: the host's selector, then selectors inside it.
        const path = node.target.find((part) => Array.isArray(part) && part.length > 1);
        const host = path ? document.querySelector(String(path[0])) : null;
        return host !== null && host.matches("[disabled]");
      };
      for (const v of results.violations) if (v.id === "color-contrast") v.nodes = v.nodes.filter((n) => !inDisabledControl(n));
      return results.violations.filter((v) => v.nodes.length > 0).map((v) => ({
        id: v.id,
        impact: v.impact ?? "",
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.map((part) => (Array.isArray(part) ? part.join(" >> ") : String(part))).join(" >> "), summary: n.failureSummary ?? "" })),
      }));
    },
    { tags: TAGS, disabled: NOT_A_PAGE },
  );
  return violations
    .filter((violation) => FAILING.has(violation.impact))
    .map((violation) => ({ ...violation, nodes: violation.nodes.map((node) => ({ ...node, summary: node.summary.replace(/\s+/g, " ").trim() })) }));
}

/**
 * Throws a readable list of the serious and critical axe violations in the webview, if any.
 * @param {import("playwright-core").Page} page
 * @param {string} where  what is shown (e.g. "Dark Modern: settings"), for the message
 */
export async function expectNoSeriousViolations(page, where) {
  const violations = await webviewViolations(page);
  if (violations.length === 0) return;
  throw new Error(`${where}: ${formatViolations(violations)}`);
}

/** @param {Awaited<ReturnType<typeof webviewViolations>>} violations */
export function formatViolations(violations) {
  const lines = violations.flatMap((v) => [
    `${v.impact} ${v.id}: ${v.help} (${v.nodes.length} element${v.nodes.length === 1 ? "" : "s"})`,
    ...v.nodes.slice(0, 5).map((node) => `    ${node.target}: ${node.summary.slice(0, 300)}`),
  ]);
  return `${violations.length} serious or critical axe violation${violations.length === 1 ? "" : "s"}:\n  ${lines.join("\n  ")}`;
}
