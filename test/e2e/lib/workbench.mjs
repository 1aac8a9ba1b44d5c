/**
 * Finding things in the VS Code workbench as a person would: the Tandem icon in the activity
 * bar, the Tandem webview, the command palette, input boxes, notifications, and the window sent
 * to the background.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { EXTENSION_ID, OUTPUT_DIR, VIEW_CONTAINER_TITLE } from "./paths.mjs";

/** @typedef {import("playwright-core").Page} Page */
/** @typedef {import("playwright-core").FrameLocator} FrameLocator */

/** How long the workbench may take to show something after navigation (usually 4-12 s). */
export const WORKBENCH_TIMEOUT = 60_000;

/**
 * The workbench URL for a folder on the server (or a `.code-workspace` file: a workspace of
 * several folders), optionally with development options (extensionDevelopmentPath,
 * extensionTestsPath) as `vscode-remote://` URIs.
 * @param {string} baseUrl  code-server's URL
 * @param {string} folder  an absolute path on the server
 * @param {Array<[string, string]>} [payload]  option name and absolute path pairs
 */
export function workbenchUrl(baseUrl, folder, payload) {
  const url = new URL(baseUrl);
  url.searchParams.set(folder.endsWith(".code-workspace") ? "workspace" : "folder", folder);
  if (payload) {
    const remote = payload.map(([name, file]) => [name, `vscode-remote://${url.host}${file}`]);
    url.searchParams.set("payload", JSON.stringify(remote));
  }
  return url.toString();
}

/**
 * Built VS Code ignores the `payload` development options unless the smoke-test driver is
 * enabled, and code-server has no flag for it. So flip `enableSmokeTestDriver` in the workbench
 * configuration <meta> element before the workbench reads it. (Rewriting the page with
 * page.route() instead makes Chromium block the websocket to 127.0.0.1.)
 * @param {Page} page
 */
export async function enableDevelopmentPayload(page) {
  await page.addInitScript(() => {
    /* global window, document, MutationObserver */
    if (window.top !== window) return;
    const observer = new MutationObserver(() => {
      const meta = document.getElementById("vscode-workbench-web-configuration");
      const raw = meta?.getAttribute("data-settings");
      if (!meta || !raw) return;
      const config = JSON.parse(raw);
      config.developmentOptions = { ...config.developmentOptions, enableSmokeTestDriver: true };
      meta.setAttribute("data-settings", JSON.stringify(config));
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  });
}

/** Navigates to the workbench and waits until its DOM is there. @param {Page} page */
export async function openWorkbench(page, url) {
  await page.goto(url);
  await page.locator(".monaco-workbench").waitFor({ timeout: WORKBENCH_TIMEOUT });
}

/** The Tandem view container's icon in the activity bar. @param {Page} page */
export function tandemTab(page) {
  return page.locator(".activitybar").getByRole("tab", { name: new RegExp(`^${VIEW_CONTAINER_TITLE}\\b`) });
}

/**
 * The document inside Tandem's webview. Webviews are two nested iframes; the outer one names the
 * extension that owns it, which keeps other webviews out of the way.
 * @param {Page} page
 * @returns {FrameLocator}
 */
export function tandemWebview(page) {
  return page.frameLocator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).frameLocator("iframe#active-frame");
}

/**
 * Clicks the Tandem icon (once it appears) and waits until the webview shows some text (the
 * panel's root element exists before the app has rendered into it).
 * @param {Page} page
 * @returns {Promise<FrameLocator>}
 */
export async function openTandemView(page) {
  const tab = tandemTab(page);
  await tab.waitFor({ timeout: WORKBENCH_TIMEOUT });
  // Clicking the icon of the container already shown hides the side bar: after a reload the
  // workbench may have restored Tandem's view by itself, so click only when it is not shown.
  if ((await tab.getAttribute("aria-selected")) !== "true") await tab.click();
  const webview = tandemWebview(page);
  const shown = webview.locator("body", { hasText: /\S/ });
  try {
    await shown.waitFor({ state: "visible", timeout: 15_000 });
  } catch {
    // The restore may have finished between the look and the click, and the click hid it.
    if ((await tab.getAttribute("aria-selected")) !== "true") await tab.click();
    await shown.waitFor({ state: "visible", timeout: WORKBENCH_TIMEOUT });
  }
  return webview;
}

/**
 * Waits until the webview shows `text`; the error quotes what it shows instead.
 * @param {FrameLocator} webview
 * @param {string} text
 */
export async function expectWebviewText(webview, text, timeout = 10_000) {
  try {
    await webview.getByText(text).first().waitFor({ timeout });
  } catch {
    const shown = (await webview.locator("body").innerText({ timeout: 2_000 }).catch(() => "(unreadable)")).replace(/\s+/g, " ");
    throw new Error(`the Tandem webview never showed "${text}" within ${timeout} ms; it shows: ${shown.slice(0, 200)}`);
  }
}

/**
 * Scrolls the chat with the mouse wheel, as a person does, until `locator` is visible: the list
 * renders only the rows near its view, so a row far above (a checkpoint marker once later rows
 * grew) is not there to click until then. Up first, then back down.
 * @param {Page} page
 * @param {FrameLocator} webview
 * @param {import("playwright-core").Locator} locator
 */
export async function scrollChatTo(page, webview, locator) {
  const box = await webview.locator(".chat-scroller").boundingBox();
  if (!box) throw new Error("the chat list has no size");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (const step of [-300, 300]) {
    for (let i = 0; i < 40 && !(await locator.isVisible()); i++) await page.mouse.wheel(0, step);
  }
  await locator.waitFor({ state: "visible", timeout: 5_000 });
}

/**
 * Runs a command the way a person does: F1, type its title, pick it.
 * @param {Page} page
 * @param {string} title  as the palette shows it, e.g. "Tandem: New Task"
 */
export async function runCommand(page, title) {
  const widget = page.locator(".quick-input-widget");
  await page.keyboard.press("F1");
  await widget.waitFor({ state: "visible", timeout: 10_000 });
  await page.keyboard.type(title);
  // Pick the row whose label is exactly the title: Enter would take whichever row is first.
  const row = widget.locator(".monaco-list-row").filter({
    has: page.locator(".label-name", { hasText: new RegExp(`^${escapeRegExp(title)}$`) }),
  });
  try {
    await row.first().waitFor({ timeout: 10_000 });
  } catch {
    const offered = await widget.locator(".monaco-list-row .label-name").allInnerTexts();
    throw new Error(`the command palette has no command "${title}"; it offers: ${offered.slice(0, 10).join(" | ") || "nothing"}`);
  }
  await row.first().click();
}

/**
 * Opens a workspace file in an editor the way a person does: quick open (the palette without its
 * `>`), the file's name typed, its row picked; waits for its tab.
 * @param {Page} page
 * @param {string} name  the file's base name, e.g. "alpha.ts"
 */
export async function openFileInEditor(page, name) {
  const widget = page.locator(".quick-input-widget");
  await page.keyboard.press("F1");
  await widget.waitFor({ state: "visible", timeout: 10_000 });
  await widget.locator("input.input").fill(name);
  const row = widget.locator(".monaco-list-row").filter({ has: page.locator(".label-name", { hasText: new RegExp(`^${escapeRegExp(name)}$`) }) });
  await row.first().click({ timeout: 15_000 });
  await page.locator(".tabs-container .tab").filter({ hasText: name }).first().waitFor({ timeout: 10_000 });
}

/**
 * Answers the input box a command opened (e.g. the API key prompt) and waits until it closes.
 * @param {Page} page
 * @param {string} text
 * @param {{ password?: boolean }} [options]  password: require a masked input box
 */
export async function answerInputBox(page, text, { password = false } = {}) {
  const widget = page.locator(".quick-input-widget");
  const input = widget.locator(password ? 'input[type="password"]' : "input.input");
  await input.waitFor({ state: "visible", timeout: 10_000 });
  await input.fill(text);
  await input.press("Enter");
  await widget.waitFor({ state: "hidden", timeout: 10_000 });
}

/**
 * Picks an entry of an open quick pick by its exact label.
 * @param {Page} page
 * @param {string} label
 */
export async function pickQuickPickItem(page, label) {
  const widget = page.locator(".quick-input-widget");
  const row = widget.locator(".monaco-list-row").filter({
    has: page.locator(".label-name", { hasText: new RegExp(`^${escapeRegExp(label)}$`) }),
  });
  await row.first().click({ timeout: 10_000 });
}

/**
 * Sets the API key through "Tandem: Set API Key", the path a person uses: the key goes into a
 * masked input box and from there into VS Code's SecretStorage.
 * @param {Page} page
 * @param {string} apiKey
 * @param {{ provider?: string }} [options]  the provider's label, when the command asks for one first
 */
export async function setApiKey(page, apiKey, { provider } = {}) {
  await runCommand(page, "Tandem: Set API Key");
  if (provider !== undefined) await pickQuickPickItem(page, provider);
  await answerInputBox(page, apiKey, { password: true });
}

/**
 * Waits for a notification toast whose text matches.
 * @param {Page} page
 * @param {RegExp} text
 */
export async function waitForNotification(page, text, timeout = 10_000) {
  const toast = page.locator(".notifications-toasts .notification-toast").filter({ hasText: text });
  await toast.first().waitFor({ timeout });
  return (await toast.first().innerText()).trim();
}

/**
 * Puts the workbench in the background, as switching to another window does: Playwright keeps
 * every page "focused" by emulation, so that is switched off for this page and a blank page is
 * brought to the front. The page gets a real blur (document.hasFocus() is false), so VS Code sees
 * its window lose focus (vscode.window.state.focused). In a browser VS Code hears that only from
 * the workbench's own document: while the keyboard is in a webview (another frame), the blur goes
 * to that frame alone and VS Code still thinks its window focused. So the focus first goes back
 * to the workbench, as a click on it would. Returns what brings the page back to the front.
 * Polling by interval: a page in the background gets no animation frames.
 * @param {Page} page
 * @returns {Promise<() => Promise<void>>}
 */
export async function sendWindowToBack(page) {
  await page.evaluate(() => /** @type {HTMLElement | null} */ (document.activeElement)?.blur());
  const context = page.context();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setFocusEmulationEnabled", { enabled: false });
  const other = await context.newPage();
  await other.bringToFront();
  await page.waitForFunction(() => !document.hasFocus(), undefined, { polling: 100, timeout: 10_000 });
  return async () => {
    await page.bringToFront();
    await page.waitForFunction(() => document.hasFocus(), undefined, { polling: 100, timeout: 10_000 });
    await other.close();
    await cdp.detach();
  };
}

/**
 * The labels of every editor tab open in the workbench (a diff tab's label names both sides).
 * @param {Page} page
 * @returns {Promise<string[]>}
 */
export async function editorTabLabels(page) {
  const labels = await page.locator(".tabs-container .tab").evaluateAll((tabs) => tabs.map((tab) => tab.getAttribute("aria-label") ?? tab.textContent ?? ""));
  return labels.map((label) => label.replace(/\s+/g, " ").trim());
}

/**
 * Saves a PNG of the whole workbench under test/e2e/.output/ and returns its path.
 * @param {Page} page
 * @param {string} name
 */
export async function saveScreenshot(page, name) {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const file = path.join(OUTPUT_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
