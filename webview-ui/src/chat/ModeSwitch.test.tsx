import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ask, asking, makeState, runningWith, say } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const modeGroup = () => screen.getByRole("group", { name: "Mode" });
const modeButton = (name: "Plan" | "Act") => within(modeGroup()).getByRole("button", { name });

describe("the Plan/Act switch", () => {
  it("shows the host's mode before a task starts, and a click asks the host, whose word moves it", async () => {
    const panel = renderPanel(makeState({ mode: "act" }));
    expect(modeButton("Act")).toHaveAttribute("aria-pressed", "true");
    expect(modeButton("Plan")).toHaveAttribute("aria-pressed", "false");

    await userEvent.click(modeButton("Plan"));
    expect(panel.posted()).toEqual([{ type: "setMode", mode: "plan" }]);
    // Not moved by the click itself: the host owns the mode.
    expect(modeButton("Act")).toHaveAttribute("aria-pressed", "true");

    panel.send({ type: "modeChanged", mode: "plan" });
    expect(modeButton("Plan")).toHaveAttribute("aria-pressed", "true");
    // The mode it is in already: nothing to ask.
    await userEvent.click(modeButton("Plan"));
    expect(panel.posted()).toHaveLength(1);
  });

  it("works during a task, and a page that loads shows the task's mode", async () => {
    const panel = renderPanel({ ...runningWith(say("text", 5, { text: "Reading the files." })), mode: "plan" });
    expect(modeButton("Plan")).toHaveAttribute("aria-pressed", "true");
    await userEvent.click(modeButton("Act"));
    expect(panel.posted()).toEqual([{ type: "setMode", mode: "act" }]);
  });
});

describe("Ctrl+Shift+A in the panel", () => {
  it("asks the host for the other mode, and keeps the key from the browser and from VS Code's forwarding on window", () => {
    const panel = renderPanel(makeState({ mode: "act" }));
    const forwarded: string[] = [];
    const onWindow = (event: KeyboardEvent) => forwarded.push(event.code);
    window.addEventListener("keydown", onWindow);
    const box = screen.getByRole("textbox", { name: "Message" });
    const press = (init: KeyboardEventInit) => {
      const event = new KeyboardEvent("keydown", { bubbles: true, cancelable: true, code: "KeyA", key: "A", ...init });
      box.dispatchEvent(event);
      return event;
    };
    const pressed = press({ ctrlKey: true, shiftKey: true });
    expect(pressed.defaultPrevented).toBe(true);
    expect(panel.posted()).toEqual([{ type: "setMode", mode: "plan" }]);
    panel.send({ type: "modeChanged", mode: "plan" });
    press({ metaKey: true, shiftKey: true });
    expect(panel.posted().at(-1)).toEqual({ type: "setMode", mode: "act" });
    // Other keys go on as before: typed, and forwarded to the workbench.
    expect(press({ ctrlKey: true }).defaultPrevented).toBe(false);
    expect(press({ ctrlKey: true, shiftKey: true, altKey: true }).defaultPrevented).toBe(false);
    expect(panel.posted()).toHaveLength(2);
    expect(forwarded).toEqual(["KeyA", "KeyA"]);
    window.removeEventListener("keydown", onWindow);
  });
});

describe("the plan row", () => {
  it("shows the plan as markdown, its options as buttons that reply, and a typed reply answers it", async () => {
    const plan = ask("plan_mode_respond", 10, { text: "1. **Split** the parser\n2. Add tests", options: ["Go with it", "Keep one file"] });
    const panel = renderPanel({ ...asking(plan), mode: "plan" });
    const row = document.querySelector('[data-row="ask:plan_mode_respond"]') as HTMLElement;
    expect(within(row).getByText("Tandem's plan")).toBeInTheDocument();
    expect(within(row).getByText("Split").tagName).toBe("STRONG");

    const group = screen.getByRole("group", { name: "Answer" });
    expect(await within(group).findByRole("button", { name: "Go with it" })).toBeInTheDocument();
    expect(within(group).getByRole("button", { name: "Finish with this plan" })).toBeInTheDocument();
    await userEvent.click(within(group).getByRole("button", { name: "Keep one file" }));
    expect(panel.posted()).toEqual([{ type: "answer", answer: { questionId: 10, choice: "reply", text: "Keep one file" } }]);
  });

  it("takes a typed reply", async () => {
    const panel = renderPanel({ ...asking(ask("plan_mode_respond", 10, { text: "The plan." })), mode: "plan" });
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "Also update the docs{Enter}");
    expect(panel.posted()).toEqual([{ type: "answer", answer: { questionId: 10, choice: "reply", text: "Also update the docs", images: [] } }]);
  });
});
