/** Checkpoints from the panel's side: the marker rows, what a restore asks first, and what is posted. */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ask, asking, makeState, runningWith, say, TASK } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const checkpoint = (hash: string) => ({ hash, apiMessages: 3 });
const edit = say("tool", 2, { tool: { tool: "write_to_file", path: "a.txt", content: "x" } });
const saved = say("checkpoint_created", 3, { checkpoint: checkpoint("c1") });
const later = [say("text", 4, { text: "Now the tests." }), say("api_req_started", 5)];
const taskRow = say("task", 1, { text: TASK.text, checkpoint: checkpoint("c0") });
/** A task that has ended (not running): restoring is allowed. */
const finished = (...rows: ReturnType<typeof say>[]) => makeState({ task: TASK, running: false, messages: rows });

const markerOf = (container: HTMLElement, kind: string) => {
  const row = container.querySelector<HTMLElement>(`[data-row="${kind}"]`);
  if (!row) throw new Error(`no ${kind} row`);
  return row;
};

describe("a checkpoint row", () => {
  it("is one line with Compare, which asks the host for the diff of that checkpoint", async () => {
    const panel = renderPanel(runningWith(edit, saved));
    const row = markerOf(panel.container, "say:checkpoint_created");
    expect(within(row).getByText("Checkpoint")).toBeInTheDocument();
    await userEvent.click(within(row).getByRole("button", { name: "Compare" }));
    expect(panel.posted()).toEqual([{ type: "compareCheckpoint", ts: 3 }]);
  });

  it("offers the three restores, asks first naming the files lost, and posts only once confirmed", async () => {
    const panel = renderPanel(finished(taskRow, edit, saved, ...later));
    const row = markerOf(panel.container, "say:checkpoint_created");
    await userEvent.click(within(row).getByRole("button", { name: "Restore" }));
    const choices = within(row).getByRole("group", { name: "Restore choices" });
    expect(within(choices).getAllByRole("button").map((button) => button.textContent)).toEqual([
      "Restore files",
      "Restore task only",
      "Restore files & task",
      "Cancel",
    ]);
    await userEvent.click(within(choices).getByRole("button", { name: "Restore files" }));
    const confirm = within(row).getByRole("group", { name: "Restore files?" });
    expect(confirm).toHaveTextContent("Changes made to files since this checkpoint will be lost.");
    expect(confirm).not.toHaveTextContent("chat");
    expect(panel.posted()).toEqual([]);
    await userEvent.click(within(confirm).getByRole("button", { name: "Restore files" }));
    expect(panel.posted()).toEqual([{ type: "restoreCheckpoint", ts: 3, scope: "files" }]);
    expect(within(row).queryByRole("group", { name: "Restore files?" })).toBeNull();
  });

  it("names the later chat for a task restore, and Cancel posts nothing", async () => {
    const panel = renderPanel(finished(taskRow, edit, saved, ...later));
    const row = markerOf(panel.container, "say:checkpoint_created");
    await userEvent.click(within(row).getByRole("button", { name: "Restore" }));
    await userEvent.click(within(row).getByRole("button", { name: "Restore task only" }));
    const confirm = within(row).getByRole("group", { name: "Restore task only?" });
    expect(confirm).toHaveTextContent("The chat after this checkpoint (2 messages) will be removed");
    expect(confirm).not.toHaveTextContent("Changes made to files");
    await userEvent.click(within(confirm).getByRole("button", { name: "Cancel" }));
    expect(within(row).queryByRole("group", { name: "Restore task only?" })).toBeNull();
    expect(within(row).queryByRole("group", { name: "Restore choices" })).toBeNull();
    expect(panel.posted()).toEqual([]);

    await userEvent.click(within(row).getByRole("button", { name: "Restore" }));
    await userEvent.click(within(row).getByRole("button", { name: "Restore files & task" }));
    const both = within(row).getByRole("group", { name: "Restore files & task?" });
    expect(both).toHaveTextContent("Changes made to files since this checkpoint will be lost.");
    expect(both).toHaveTextContent("(2 messages) will be removed");
    await userEvent.click(within(both).getByRole("button", { name: "Restore files & task" }));
    expect(panel.posted()).toEqual([{ type: "restoreCheckpoint", ts: 3, scope: "both" }]);
  });

  it("cannot restore mid-round: only while a question is open or the task is not running", async () => {
    const busy = renderPanel(runningWith(edit, saved));
    expect(within(markerOf(busy.container, "say:checkpoint_created")).getByRole("button", { name: "Restore" })).toBeDisabled();
    busy.unmount();

    const question = ask("followup", 4, { text: "Which file next?" });
    const waiting = renderPanel(asking(edit, saved, question));
    expect(within(markerOf(waiting.container, "say:checkpoint_created")).getByRole("button", { name: "Restore" })).toBeEnabled();
  });

  it("disables the confirmation when the task gets busy before the person confirms", async () => {
    const question = ask("followup", 4, { text: "Which file next?" });
    const panel = renderPanel(asking(edit, saved, question));
    const row = markerOf(panel.container, "say:checkpoint_created");
    await userEvent.click(within(row).getByRole("button", { name: "Restore" }));
    await userEvent.click(within(row).getByRole("button", { name: "Restore files" }));
    // The person answers elsewhere; the task goes on with its next round.
    panel.send({ type: "questionChanged", question: undefined });
    const confirm = within(row).getByRole("group", { name: "Restore files?" });
    expect(within(confirm).getByRole("button", { name: "Restore files" })).toBeDisabled();
    expect(confirm).toHaveTextContent("Tandem is working");
    expect(panel.posted()).toEqual([]);
  });
});

describe("the task's first row", () => {
  it("offers the same actions once it carries the initial checkpoint, going back to before the first step", async () => {
    const panel = renderPanel(finished(taskRow, edit, saved, ...later));
    const row = markerOf(panel.container, "say:task");
    const marker = within(row).getByRole("group", { name: "Checkpoint before the task" });
    await userEvent.click(within(marker).getByRole("button", { name: "Compare" }));
    await userEvent.click(within(marker).getByRole("button", { name: "Restore" }));
    await userEvent.click(within(marker).getByRole("button", { name: "Restore files & task" }));
    const confirm = within(marker).getByRole("group", { name: "Restore files & task?" });
    expect(confirm).toHaveTextContent("Changes made to files since the task started will be lost.");
    expect(confirm).toHaveTextContent("The chat after the task's prompt (4 messages) will be removed");
    await userEvent.click(within(confirm).getByRole("button", { name: "Restore files & task" }));
    expect(panel.posted()).toEqual([
      { type: "compareCheckpoint", ts: 1 },
      { type: "restoreCheckpoint", ts: 1, scope: "both" },
    ]);
  });

  it("shows no checkpoint before it has one, and shows it when the host adds it", () => {
    const panel = renderPanel(runningWith(edit));
    const row = markerOf(panel.container, "say:task");
    expect(within(row).queryByRole("button", { name: "Compare" })).toBeNull();
    panel.send({ type: "messageUpdated", message: taskRow });
    expect(within(markerOf(panel.container, "say:task")).getByRole("button", { name: "Compare" })).toBeInTheDocument();
  });
});

describe("the task's result", () => {
  const result = say("completion_result", 6, { text: "Done." });

  it("offers See new changes, the diff of everything the task changed", async () => {
    const panel = renderPanel(finished(taskRow, edit, saved, result));
    await userEvent.click(within(markerOf(panel.container, "say:completion_result")).getByRole("button", { name: "See new changes" }));
    expect(panel.posted()).toEqual([{ type: "compareCheckpoint", ts: 1 }]);
  });

  it("offers nothing to see when the task has no initial checkpoint (checkpoints off), until it gets one", () => {
    const panel = renderPanel(finished(say("task", 1, { text: TASK.text }), edit, result));
    expect(screen.queryByRole("button", { name: "See new changes" })).toBeNull();
    panel.send({ type: "messageUpdated", message: taskRow });
    expect(screen.getByRole("button", { name: "See new changes" })).toBeInTheDocument();
  });
});
