/** Editing one of the person's messages from the panel: what opens, what it says it loses, what is posted. */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeState, runningWith, say, TASK } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const taskRow = say("task", 1, { text: TASK.text, checkpoint: { hash: "c0", apiMessages: 1 }, conversationAt: { messages: 0, lastBlocks: 0 } });
const reply = say("user_feedback", 4, { text: "Also b.txt", images: ["data:image/png;base64,AAAA"], conversationAt: { messages: 3, lastBlocks: 1 } });
const later = [say("text", 5, { text: "On it." }), say("api_req_started", 6)];
const finished = (...rows: ReturnType<typeof say>[]) => makeState({ task: TASK, running: false, messages: rows });

const rowOf = (container: HTMLElement, kind: string) => {
  const row = container.querySelector<HTMLElement>(`[data-row="${kind}"]`);
  if (!row) throw new Error(`no ${kind} row`);
  return row;
};

describe("Edit on the person's messages", () => {
  it("opens the message in a box, says what goes, and posts the edited text, the images kept and whether the files go back", async () => {
    const panel = renderPanel(finished(taskRow, say("text", 2, { text: "Done." }), say("api_req_started", 3), reply, ...later));
    const row = rowOf(panel.container, "say:user_feedback");
    await userEvent.click(within(row).getByRole("button", { name: "Edit" }));
    const editor = within(row).getByRole("group", { name: "Edit your message" });
    const box = within(editor).getByRole("textbox", { name: "Edited message" });
    expect(box).toHaveFocus();
    expect(box).toHaveValue("Also b.txt");
    expect(editor).toHaveTextContent("The chat after this message (2 messages) will be removed");
    expect(editor).toHaveTextContent("Changes made to files since then will be lost.");
    await userEvent.click(within(editor).getByRole("checkbox", { name: /Put the files back/ }));
    expect(editor).toHaveTextContent("The files stay as they are now.");
    await userEvent.clear(box);
    await userEvent.type(box, "Also c.txt{Enter}");
    expect(panel.posted()).toEqual([{ type: "editMessage", ts: 4, text: "Also c.txt", images: ["data:image/png;base64,AAAA"], restoreFiles: false }]);
    expect(within(row).queryByRole("group", { name: "Edit your message" })).toBeNull();
  });

  it("lets an image be removed, keeps Shift+Enter as a new line, and Escape posts nothing and gives the focus back to Edit", async () => {
    const panel = renderPanel(finished(taskRow, reply));
    const row = rowOf(panel.container, "say:user_feedback");
    await userEvent.click(within(row).getByRole("button", { name: "Edit" }));
    const editor = within(row).getByRole("group", { name: "Edit your message" });
    await userEvent.click(within(editor).getByRole("button", { name: "Remove image 1" }));
    expect(within(editor).queryByRole("img")).toBeNull();
    const box = within(editor).getByRole("textbox", { name: "Edited message" });
    await userEvent.type(box, "{Shift>}{Enter}{/Shift}more");
    expect(box).toHaveValue("Also b.txt\nmore");
    await userEvent.keyboard("{Escape}");
    expect(panel.posted()).toEqual([]);
    expect(within(row).getByRole("button", { name: "Edit" })).toHaveFocus();
  });

  it("edits the task's own text, and refuses an empty edit", async () => {
    const panel = renderPanel(finished(taskRow, ...later));
    const row = rowOf(panel.container, "say:task");
    await userEvent.click(within(row).getByRole("button", { name: "Edit" }));
    const editor = within(row).getByRole("group", { name: "Edit your message" });
    const box = within(editor).getByRole("textbox", { name: "Edited message" });
    await userEvent.clear(box);
    expect(within(editor).getByRole("button", { name: "Send edited message" })).toBeDisabled();
    await userEvent.type(box, "{Enter}");
    expect(panel.posted()).toEqual([]);
    await userEvent.type(box, "A new task");
    await userEvent.click(within(editor).getByRole("button", { name: "Send edited message" }));
    expect(panel.posted()).toEqual([{ type: "editMessage", ts: 1, text: "A new task", images: [], restoreFiles: true }]);
  });

  it("is offered only where the host can go back to, and not while the task works", () => {
    const older = say("user_feedback", 4, { text: "saved by an older Tandem" });
    const panel = renderPanel(finished(taskRow, older));
    expect(within(rowOf(panel.container, "say:user_feedback")).queryByRole("button", { name: "Edit" })).toBeNull();
    panel.unmount();
    const busy = renderPanel(runningWith(reply, ...later));
    expect(within(rowOf(busy.container, "say:user_feedback")).getByRole("button", { name: "Edit" })).toBeDisabled();
    expect(screen.queryByRole("group", { name: "Edit your message" })).toBeNull();
  });

  it("offers no files to put back when the task has no checkpoints", async () => {
    const panel = renderPanel(finished(say("task", 1, { text: TASK.text, conversationAt: { messages: 0, lastBlocks: 0 } }), reply));
    const row = rowOf(panel.container, "say:user_feedback");
    await userEvent.click(within(row).getByRole("button", { name: "Edit" }));
    const editor = within(row).getByRole("group", { name: "Edit your message" });
    expect(within(editor).queryByRole("checkbox")).toBeNull();
    expect(editor).toHaveTextContent("The files stay as they are now.");
    await userEvent.click(within(editor).getByRole("button", { name: "Send edited message" }));
    expect(panel.posted()).toEqual([{ type: "editMessage", ts: 4, text: "Also b.txt", images: ["data:image/png;base64,AAAA"], restoreFiles: false }]);
  });
});
