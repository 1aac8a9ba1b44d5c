/**
 * A command still running after a few seconds: the panel asks whether to go on while it runs, and
 * that question stays answerable while the command's output keeps arriving below it (the panel
 * once lost Proceed and Kill at the next output row, while the host still waited). A message typed
 * then answers it: the command goes on in the background and the model gets the message. When it
 * ends there, its last row names it and says how it ended, once.
 */
import assert from "node:assert/strict";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "Proceed and Kill stay while a running command's output streams; typing answers them";

const COMMAND = "for i in 1 2 3 4 5 6 7 8 9 10; do echo tick-$i; sleep 1; done";
const MESSAGE = "Leave it running and summarise.";
const RESULT = "The ticker runs in the background.";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function commandStillRunning(t) {
  const session = await t.startSession({
    files: { "README.md": "# ticker\n" },
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: false },
    script: [
      { text: `I'll start the ticker.\n<execute_command>\n<command>${COMMAND}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` },
      { text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` },
    ],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-e2e-still-running");
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Start the ticker.");
  await input.press("Enter");

  const run = webview.getByRole("button", { name: "Run" });
  await run.waitFor({ timeout: 30_000 });
  await run.click();
  const proceed = webview.getByRole("button", { name: "Proceed While Running" });
  const kill = webview.getByRole("button", { name: "Kill Command" });
  await proceed.waitFor({ timeout: 20_000 });
  session.lap("still-running question open");
  // Output that comes after the question is shown below it, and the question keeps its buttons.
  const asked = await tickShown(webview);
  await expectWebviewText(webview, `tick-${asked + 2}`, 10_000);
  assert.ok(await proceed.isVisible(), `Proceed While Running stays while the output streams (tick-${asked + 2} shown)`);
  assert.ok(await kill.isVisible(), `Kill Command stays while the output streams (tick-${asked + 2} shown)`);
  t.log(`question asked at tick-${asked}; buttons still there at tick-${asked + 2}; screenshot: ${await saveScreenshot(page, "28-command-still-running")}`);

  await input.fill(MESSAGE);
  await input.press("Enter");
  await expectWebviewText(webview, RESULT, 30_000);
  assert.equal(await proceed.count(), 0, "answered: the buttons are gone");
  const requests = await session.model.requests();
  assert.equal(requests.length, 2, "one request for the command, one after the person's answer");
  const lastTurn = JSON.stringify(requests[1].body.messages.at(-1));
  assert.ok(lastTurn.includes(MESSAGE), `the typed message answers the still-running question and reaches the model; the last turn: ${lastTurn.slice(0, 400)}`);
  assert.ok(lastTurn.includes("still running in the background"), "the command went on in the background");

  // The ticker ends in the background: the run's last row names it and says how it ended, once
  // (an info row once said it again, in the model's words).
  const ended = `Background command ended: ${COMMAND}`;
  await expectWebviewText(webview, ended, 20_000);
  const text = await webview.locator("body").innerText();
  assert.equal(text.split(ended).length - 1, 1, "the end is shown once, on the run's last row");
  assert.equal(text.includes(`${COMMAND}" ended`), false, `no second row says the command ended; the panel shows: ${text.slice(-600)}`);
  assert.match(text.slice(text.indexOf(ended)), /^Background command ended: [^\n]+\s+(?:[^\n]*\n)*?[^\n]*Exit code 0 · /, "the last row gives the exit code and the confinement");
  t.log(`ended in the background: screenshot: ${await saveScreenshot(page, "28-command-ended-in-background")}`);
}

/**
 * The highest tick the panel shows.
 * @param {import("playwright-core").FrameLocator} webview
 */
async function tickShown(webview) {
  const text = await webview.locator("body").innerText();
  const ticks = [...text.matchAll(/tick-(\d+)/g)].map((m) => Number(m[1]));
  assert.ok(ticks.length > 0, `the command's output shows in the panel; it shows: ${text.replace(/\s+/g, " ").slice(0, 300)}`);
  return Math.max(...ticks);
}
