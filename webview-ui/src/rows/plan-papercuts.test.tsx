/** Plan mode, as the person meets it: options shown once, "Finish with this plan" explained, a refused call a calm note. */
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ask, asking, runningWith, say } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const PLAN_TEXT = "1. Split the parser\n2. Add tests\n\nOptions:\n- Go with it\n- Keep one file";
const plan = (extra = {}) => ask("plan_mode_respond", 10, { text: PLAN_TEXT, options: ["Go with it", "Keep one file"], ...extra });
const planRow = () => document.querySelector('[data-row="ask:plan_mode_respond"]') as HTMLElement;
/** How often `needle` is on screen (the screen reader's hidden announcements aside). */
function count(needle: string): number {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let seen = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest(".visually-hidden")) seen += (node.textContent ?? "").split(needle).length - 1;
  }
  return seen;
}

describe("a plan's options", () => {
  it("are the buttons while it waits, and nowhere else", async () => {
    renderPanel({ ...asking(plan()), mode: "plan" });
    expect(await within(screen.getByRole("group", { name: "Answer" })).findByRole("button", { name: "Keep one file" })).toBeInTheDocument();
    expect(count("Keep one file")).toBe(1);
    expect(within(planRow()).queryByText(/Options:/)).toBeNull();
    // The plan's own list stays.
    expect(within(planRow()).getByText("Split the parser")).toBeInTheDocument();
  });

  it("are a list under the plan once it is answered", () => {
    renderPanel({ ...runningWith(plan({ outcome: "message" })), mode: "plan" });
    expect(count("Keep one file")).toBe(1);
    expect(within(within(planRow()).getByRole("list", { name: "Options offered" })).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Go with it", "Keep one file"]);
  });

  it("are shown once for a followup question too", async () => {
    renderPanel(asking(ask("followup", 10, { text: "Which one?\n1. Red\n2. Blue", options: ["Red", "Blue"] })));
    await screen.findByRole("button", { name: "Blue" });
    expect(count("Blue")).toBe(1);
  });
});

describe("Finish with this plan", () => {
  it("says what it does, under the buttons and as the button's description", async () => {
    renderPanel({ ...asking(plan()), mode: "plan" });
    const finish = await within(screen.getByRole("group", { name: "Answer" })).findByRole("button", { name: "Finish with this plan" });
    const note = document.getElementById(finish.getAttribute("aria-describedby") ?? "");
    expect(note?.textContent).toMatch(/ends the task here, with the plan as its result: nothing is changed or run\. To have Tandem carry it out, switch to Act\./);
    expect(finish).toHaveAccessibleDescription(note?.textContent ?? "");
  });
});

describe("a call the mode refused", () => {
  it("is the call's row, not run, with the note for the person: no error", () => {
    const note = "Plan mode only explores and plans, so nothing was changed or run. Switch to Act when you want the plan carried out.";
    renderPanel({ ...runningWith(say("tool", 5, { text: note, tool: { tool: "write_to_file", path: "notes.js", refusedIn: "plan" } })), mode: "plan" });
    const row = document.querySelector('[data-row="say:tool"]') as HTMLElement;
    expect(row.querySelector(".row-title")?.textContent).toBe("Tandem wanted to write this file (not run in Plan mode)");
    expect(row).toHaveClass("tone-muted");
    expect(within(row).getByText(note)).toBeInTheDocument();
    expect(within(row).getByRole("button", { name: "notes.js" })).toBeInTheDocument();
    expect(document.querySelector(".tone-error")).toBeNull();
  });
});
