/**
 * Notifications through the installed .vsix: with the window in the background (a real blur of
 * the browser page), a question that opens is said in a VS Code notification naming the task and
 * the question; its Show button opens the panel with the keyboard on the question's answers, so
 * Enter answers it. While the window is focused nothing is notified. A result that arrives in the
 * background is notified too, and its Show focuses "Start New Task"; a notification whose question
 * was answered meanwhile only opens the panel, with the keyboard in the input box.
 */
import assert from "node:assert/strict";
import { expectWebviewText, openTandemView, saveScreenshot, sendWindowToBack, setApiKey, waitForNotification } from "../lib/workbench.mjs";

export const description = "a question opened while the window is in the background is notified; Show focuses its answers; none while focused";

const slowly = (text) => ({ text, chunkSize: 6, delayMs: 40 });
const command = (line) => `<execute_command>\n<command>${line}</command>\n<requires_approval>true</requires_approval>\n</execute_command>`;
const result = (text) => ({ text: `<attempt_completion>\n<result>${text}</result>\n</attempt_completion>` });
const PROSE = "First I will run the test suite and read what it says, then report back on what passed and what did not. ";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function notifications(t) {
  const session = await t.startSession({
    tandem: { provider: "anthropic", modelId: "claude-sonnet-5-5", yolo: false },
    script: [
      slowly(`${PROSE}${command("echo first-run")}`),
      result("Ran the tests: all pass."),
      slowly(`${PROSE}${command("echo second-run")}`),
      // Slow: the window goes to the background while it streams.
      { ...result("Second run done."), text: `${PROSE}${result("Second run done.").text}`, chunkSize: 4, delayMs: 60 },
    ],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-ant-e2e-notify");
  await waitForNotification(page, /API key/);
  const toast = (text) => page.locator(".notifications-toasts .notification-toast").filter({ hasText: text });
  // A VS Code button is a custom element: the focus is on it while its inner button shows the ring.
  const focusedIn = (locator) =>
    locator.evaluate((element) => {
      const root = /** @type {Node & { host?: Element }} */ (element.getRootNode());
      const host = root.host ?? element;
      return host.ownerDocument.activeElement === host;
    });

  // 1. The window goes to the background while the answer streams: the question is notified there.
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Run the tests");
  await input.press("Enter");
  let bringBack = await sendWindowToBack(page);
  session.lap("window in the background");
  const said = await waitForNotification(page, "Tandem wants to run `echo first-run`", 30_000);
  assert.match(said, /Tandem wants to run `echo first-run` — task: Run the tests/, `the notification names the question and the task; it says: ${said}`);
  await bringBack();
  t.log(`notification: ${said.replace(/\s+/g, " ")}; screenshot: ${await saveScreenshot(page, "46-notifications-toast")}`);

  // Show: the panel, the keyboard on Run; Enter (the real keyboard) answers the question.
  await toast("echo first-run").getByRole("button", { name: "Show" }).click();
  const run = webview.getByRole("button", { name: "Run", exact: true });
  await expectPoll(() => focusedIn(run), "Show moves the keyboard to the question's first answer (Run)");
  await page.keyboard.press("Enter");
  await expectWebviewText(webview, "Ran the tests: all pass.", 20_000);
  session.lap("answered from the notification");

  // 2. Focused: the result is not notified.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  assert.equal(await toast("Tandem finished").count(), 0, "nothing is notified while the window is focused");

  // 3. In the background again; the person comes back by themselves and answers in the panel, then
  // leaves while the result streams: the result is notified, and the question's notification is stale.
  await webview.getByRole("button", { name: "Start New Task", exact: true }).click();
  await input.fill("Run them again");
  await input.press("Enter");
  bringBack = await sendWindowToBack(page);
  await waitForNotification(page, "Tandem wants to run `echo second-run`", 30_000);
  await bringBack();
  await webview.getByRole("button", { name: "Run", exact: true }).click();
  bringBack = await sendWindowToBack(page);
  const finished = await waitForNotification(page, "Tandem finished: Second run done.", 30_000);
  assert.match(finished, /task: Run them again/, `the result's notification names the task; it says: ${finished}`);
  await bringBack();
  await toast("echo second-run").getByRole("button", { name: "Show" }).click();
  await expectPoll(() => focusedIn(input), "an answered question's Show leaves the keyboard in the input box");
  assert.equal(await page.locator(".notifications-toasts .notification-toast .codicon-error").count(), 0, "and nothing went wrong");
  await toast("Tandem finished: Second run done.").getByRole("button", { name: "Show" }).click();
  await expectPoll(() => focusedIn(webview.getByRole("button", { name: "Start New Task", exact: true })), "the result's Show focuses its answer");
  t.log(`screenshot: ${await saveScreenshot(page, "46-notifications-done")}`);
}

/** Polls `check` for up to 10 s; fails with `what` if it never holds. */
async function expectPoll(check, what) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(what);
}
