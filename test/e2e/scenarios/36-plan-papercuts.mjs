/**
 * Plan mode as the person meets it (issue 26): a write the mode refuses is the call's own row,
 * "not run in Plan mode", with a calm note for the person and no red error (the model still reads
 * its explanation); a plan whose text repeats its options as a list shows each option once (the
 * buttons while it waits, a list once answered); "Finish with this plan" says what it does, on
 * screen and as the button's accessible description, and pressing it ends the task there.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "Plan mode: a refused write is a calm note, the plan's options are shown once, and 'Finish with this plan' is explained";

const OPTIONS = ["Go with it", "Keep one file"];
const PLAN = `PLAN-36: split the parser into two files.\n\nOptions:\n- ${OPTIONS[0]}\n- ${OPTIONS[1]}`;
const respond = (response, options) => ({ text: `<plan_mode_respond>\n<response>${response}</response>\n${options ? `<options>${JSON.stringify(options)}</options>\n` : ""}</plan_mode_respond>` });

/** How often `needle` is on screen in the webview (the screen reader's hidden announcements aside). */
function shownCount(webview, needle) {
  return webview.locator("body").evaluate((body, text) => {
    /* global document, NodeFilter */
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    let seen = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement?.closest(".visually-hidden")) seen += (node.textContent ?? "").split(text).length - 1;
    }
    return seen;
  }, needle);
}

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function planPapercuts(t) {
  const session = await t.startSession({
    files: { "README.md": "# plan\n" },
    tandem: { provider: "anthropic", modelId: "claude-sonnet-4-6", yolo: true, extra: { defaultMode: "plan" } },
    script: [
      { text: "<write_to_file>\n<path>notes.js</path>\n<content>export const notes = 1;\n</content>\n</write_to_file>" },
      respond(PLAN, OPTIONS),
      respond("PLAN-36 agreed: two files."),
    ],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-ant-e2e-plan-papercuts");
  await webview.locator('.mode-option.active:text-is("Plan")').waitFor({ timeout: 10_000 });
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Split the parser");
  await input.press("Enter");

  const answers = webview.getByRole("group", { name: "Answer" });
  await answers.getByRole("button", { name: OPTIONS[1] }).waitFor({ timeout: 45_000 });
  session.lap("plan shown");

  // (c) The refused write: the call's row, not run, a calm note; no error row; the model was told.
  const refused = webview.locator('[data-row="say:tool"]').filter({ hasText: "not run in Plan mode" });
  assert.equal((await refused.locator(".row-title").innerText()).trim(), "Tandem wanted to write this file (not run in Plan mode)");
  assert.match(await refused.innerText(), /Plan mode only explores and plans, so nothing was changed or run\. Switch to Act when you want the plan carried out\./);
  assert.equal(await webview.locator(".row.tone-error").count(), 0, "no red error row for the refusal");
  assert.equal(await shownCount(webview, "not available in Plan mode"), 0, "the model's explanation is not shown to the person");
  const [, second] = await session.model.requests();
  assert.match(JSON.stringify(second.body.messages.at(-1)), /write_to_file is not available in Plan mode/, "the model still reads why");
  assert.equal(existsSync(path.join(session.workspace, "notes.js")), false, "nothing was written");

  // (a) Each option once on screen: as a button, not also in the text or a list.
  for (const option of OPTIONS) assert.equal(await shownCount(webview, option), 1, `"${option}" is shown once while the plan waits`);
  assert.equal(await shownCount(webview, "Options:"), 0, "the text's own Options: list is taken out");

  // (b) Finish with this plan, explained.
  const finish = answers.getByRole("button", { name: "Finish with this plan" });
  const noteId = await finish.getAttribute("aria-describedby");
  assert.ok(noteId, "the button has an accessible description");
  const note = webview.locator(`[id="${noteId}"]`);
  assert.ok(await note.isVisible(), "and it is on screen");
  assert.match(await note.innerText(), /ends the task here, with the plan as its result: nothing is changed or run\. To have Tandem carry it out, switch to Act\./);
  t.log(`refusal and plan shown; screenshot: ${await saveScreenshot(page, "36-plan-papercuts")}`);

  // Picking an option replies with it; the answered plan keeps its options once, as a list.
  await answers.getByRole("button", { name: OPTIONS[0] }).click();
  await webview.getByRole("log").getByText("PLAN-36 agreed: two files.").waitFor({ timeout: 30_000 });
  const offered = webview.locator('[data-row="ask:plan_mode_respond"]').first().getByRole("list", { name: "Options offered" });
  assert.deepEqual(await offered.getByRole("listitem").allInnerTexts(), OPTIONS, "the answered plan lists its options");
  assert.equal(await shownCount(webview, OPTIONS[1]), 1, "still once");
  assert.match(JSON.stringify((await session.model.requests())[2].body.messages.at(-1)), new RegExp(OPTIONS[0]), "the picked option is the reply");

  // Finish with this plan ends the task there: no further request.
  await answers.getByRole("button", { name: "Finish with this plan" }).click();
  await answers.waitFor({ state: "hidden", timeout: 10_000 });
  assert.equal((await session.model.requests()).length, 3, "finishing sends nothing more to the model");
  t.log(`finished with the plan; screenshot: ${await saveScreenshot(page, "36-plan-finished")}`);
}
