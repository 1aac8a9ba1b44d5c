/**
 * Cancel while the answer streams: the model's first answer trickles in (small chunks with a
 * delay), the person clicks the panel's Cancel button, the panel says so and stops running, the
 * text stops growing, and no further request reaches the model.
 */
import assert from "node:assert/strict";
import { expectWebviewText, openTandemView, saveScreenshot } from "../lib/workbench.mjs";

export const description = "Cancel during a streamed answer stops the task and sends no further request";

/** Numbered parts, so the panel's text tells how far the stream got. */
const PARTS = Array.from({ length: 120 }, (_, i) => `Part ${String(i + 1).padStart(3, "0")} of the slow answer.`);
const SLOW_ANSWER = `${PARTS.join(" ")}\n<attempt_completion>\n<result>Never reached.</result>\n</attempt_completion>`;
const QUIET_AFTER_CANCEL_MS = 2_000;

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function cancelStreaming(t) {
  const session = await t.startSession({
    files: { "README.md": "# cancel me\n" },
    // An OpenAI-compatible server with a base URL needs no key.
    tandem: { provider: "openai", modelId: "gpt-4o", yolo: true },
    script: [
      // ~3,700 characters in 8-character chunks every 40 ms: about 18 s of streaming.
      { text: SLOW_ANSWER, chunkSize: 8, delayMs: 40 },
      // Would be served if the task went on after the cancel.
      { text: "<attempt_completion>\n<result>Went on after cancel.</result>\n</attempt_completion>" },
    ],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  session.lap("Tandem view shown");

  const input = webview.getByRole("textbox").first();
  await input.fill("Write a long answer");
  await input.press("Enter");
  await expectWebviewText(webview, "Part 003", 20_000);
  session.lap("stream visible");

  const cancel = webview.locator("vscode-button", { hasText: /^\s*Cancel\s*$/ });
  await cancel.click({ timeout: 5_000 });
  const cancelledAt = Date.now();
  await expectWebviewText(webview, "Task cancelled", 10_000);
  await cancel.waitFor({ state: "detached", timeout: 10_000 }).catch(() => {
    throw new Error("the Cancel button is still shown after the cancel: the panel thinks the task is running");
  });
  session.lap("cancel shown");

  const shownAtCancel = await lastPartShown(webview);
  t.log(`last part shown after the cancel: ${shownAtCancel}`);
  const waitLeft = QUIET_AFTER_CANCEL_MS - (Date.now() - cancelledAt);
  if (waitLeft > 0) await new Promise((resolve) => setTimeout(resolve, waitLeft));

  const requests = await session.model.requests();
  assert.equal(requests.length, 1, `exactly one model request in the ${QUIET_AFTER_CANCEL_MS / 1000} s after the cancel (got ${requests.length})`);
  const shownLater = await lastPartShown(webview);
  assert.equal(shownLater, shownAtCancel, "the streamed text stopped growing after the cancel");
  assert.ok(shownAtCancel < PARTS.length, `the stream was cut short (last part shown: ${shownAtCancel} of ${PARTS.length})`);
  const body = await webview.locator("body").innerText();
  assert.doesNotMatch(body, /Never reached|Went on after cancel/, "no completion is shown after the cancel");
  t.log(`screenshot: ${await saveScreenshot(page, "20-cancel-streaming")}`);
  // The request row tells how the request ended, like the info row does.
  const requestRow = webview.locator('[data-row="say:api_req_started"]').first();
  const requestTitle = (await requestRow.innerText()).split("\n")[0]?.trim();
  assert.equal(requestTitle, "API request cancelled", "the cancelled request's row says so instead of spinning on");
}

/** The highest "Part NNN" the panel shows (0 when none). */
async function lastPartShown(webview) {
  const text = await webview.locator("body").innerText();
  const numbers = [...text.matchAll(/Part (\d{3})/g)].map((m) => Number(m[1]));
  return Math.max(0, ...numbers);
}
