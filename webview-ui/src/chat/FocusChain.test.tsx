/** The checklist above the chat: drawn from the chat's task_progress rows, edited by posting the whole new list. */
import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { FocusChainItem } from "../../../src/shared/focus-chain";
import { DEFAULT_AGENT_SETTINGS } from "../../../src/shared/settings";
import { makeSettings, runningWith, say } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const items = (...list: [string, boolean][]): FocusChainItem[] => list.map(([text, done]) => ({ text, done }));
const progressRow = (ts: number, list: FocusChainItem[], by: "model" | "person" = "model") => say("task_progress", ts, { text: "", focusChain: { items: list, by } });
const FIRST = items(["Look", true], ["Fix", false], ["Test", false]);
const checklist = () => screen.getByRole("region", { name: "Checklist" });
const edited = (list: FocusChainItem[]) => ({ type: "editFocusChain", items: list });

describe("the checklist", () => {
  it("renders the newest list from the chat with its progress, and follows a new row", () => {
    const panel = renderPanel(runningWith(progressRow(2, items(["Old", false])), say("text", 3, { text: "hi" }), progressRow(4, FIRST)));
    expect(within(checklist()).getByLabelText("Checklist progress")).toHaveTextContent("1/3");
    expect(within(checklist()).getByRole("checkbox", { name: "Done: Look" })).toBeChecked();
    expect(within(checklist()).getByRole("checkbox", { name: "Done: Fix" })).not.toBeChecked();
    expect(within(checklist()).queryByText("Old")).toBeNull();
    panel.send({ type: "messageAdded", message: progressRow(5, items(["Look", true], ["Fix", true]), "person") });
    expect(within(checklist()).getByLabelText("Checklist progress")).toHaveTextContent("2/2");
    // The row in the chat says who changed it.
    expect(screen.getByText("You edited the checklist (2/2)")).toBeInTheDocument();
  });

  it("shows nothing while the task has no list, or with the focus chain off", () => {
    renderPanel(runningWith(say("text", 2, { text: "hi" })));
    expect(screen.queryByRole("region", { name: "Checklist" })).toBeNull();
    const off = renderPanel({ ...runningWith(progressRow(2, FIRST)), settings: makeSettings({ agent: { ...DEFAULT_AGENT_SETTINGS, focusChain: false } }) });
    expect(within(off.container).queryByRole("region", { name: "Checklist" })).toBeNull();
  });

  it("ticks and unticks, edits, adds and removes items, each posting the whole new list", async () => {
    const panel = renderPanel(runningWith(progressRow(2, FIRST)));
    await userEvent.click(screen.getByRole("checkbox", { name: "Done: Fix" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Done: Look" }));
    await userEvent.click(screen.getByRole("button", { name: "Test" }));
    const box = screen.getByRole("textbox", { name: "Edit item" });
    await userEvent.clear(box);
    await userEvent.type(box, "Run the tests{Enter}");
    await userEvent.click(screen.getByRole("button", { name: "Remove: Look" }));
    await userEvent.type(screen.getByRole("textbox", { name: "Add an item" }), "Write the docs{Enter}");
    expect(panel.posted()).toEqual([
      edited(items(["Look", true], ["Fix", true], ["Test", false])),
      edited(items(["Look", false], ["Fix", false], ["Test", false])),
      edited(items(["Look", true], ["Fix", false], ["Run the tests", false])),
      edited(items(["Fix", false], ["Test", false])),
      edited(items(["Look", true], ["Fix", false], ["Test", false], ["Write the docs", false])),
    ]);
    expect(screen.getByRole("textbox", { name: "Add an item" })).toHaveValue("");
  });

  it("posts nothing for an edit left empty or unchanged, or cancelled with Escape", async () => {
    const panel = renderPanel(runningWith(progressRow(2, FIRST)));
    await userEvent.click(screen.getByRole("button", { name: "Fix" }));
    await userEvent.clear(screen.getByRole("textbox", { name: "Edit item" }));
    fireEvent.blur(screen.getByRole("textbox", { name: "Edit item" }));
    await userEvent.click(screen.getByRole("button", { name: "Fix" }));
    await userEvent.type(screen.getByRole("textbox", { name: "Edit item" }), " later{Escape}");
    await userEvent.type(screen.getByRole("textbox", { name: "Add an item" }), "   {Enter}");
    expect(panel.posted()).toEqual([]);
    expect(screen.getByRole("button", { name: "Fix" })).toBeInTheDocument();
  });

  it("a reloaded panel shows the list its state carries", () => {
    renderPanel(runningWith(progressRow(2, FIRST), progressRow(3, items(["Only", false]), "person")));
    expect(within(checklist()).getByLabelText("Checklist progress")).toHaveTextContent("0/1");
  });
});
