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
  it("is one line, named by its number, with Compare, which asks the host for the diff of that checkpoint", async () => {
    const second = say("checkpoint_created", 8, { checkpoint: checkpoint("c2") });
    const panel = renderPanel(runningWith(edit, saved, ...later, second));
    const row = markerOf(panel.container, "say:checkpoint_created");
    expect(within(row).getByText("Checkpoint 1")).toBeInTheDocument();
    expect(panel.container.querySelectorAll('[data-row="say:checkpoint_created"]')[1]).toHaveTextContent("Checkpoint 2");
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

  it("offers See new changes, the diff of everything the task changed, on its first result", async () => {
    const panel = renderPanel(finished(taskRow, edit, saved, result));
    await userEvent.click(within(markerOf(panel.container, "say:completion_result")).getByRole("button", { name: "See new changes" }));
    expect(panel.posted()).toEqual([{ type: "compareCheckpoint", ts: 1 }]);
  });

  it("offers nothing to see when the task changed no file (no round made a checkpoint), or checkpoints are off", () => {
    const read = say("tool", 2, { tool: { tool: "read_file", path: "a.txt", content: "x" } });
    const nothing = renderPanel(finished(taskRow, read, result));
    expect(screen.queryByRole("button", { name: "See new changes" })).toBeNull();
    nothing.unmount();
    renderPanel(finished(say("task", 1, { text: TASK.text }), edit, result));
    expect(screen.queryByRole("button", { name: "See new changes" })).toBeNull();
  });

  it("on a later result, shows what changed since the previous one, and only when something did", async () => {
    const reply = say("user_feedback", 7, { text: "Also the docs." });
    const again = say("completion_result", 9, { text: "Done again." });
    const unchanged = renderPanel(finished(taskRow, edit, saved, result, reply, say("text", 8), again));
    expect(within(markerOf(unchanged.container, "say:completion_result")).getByRole("button", { name: "See new changes" })).toBeInTheDocument();
    const results = () => [...unchanged.container.querySelectorAll<HTMLElement>('[data-row="say:completion_result"]')];
    expect(within(results()[1] as HTMLElement).queryByRole("button", { name: "See new changes" })).toBeNull();
    unchanged.unmount();

    const docs = say("checkpoint_created", 8, { checkpoint: checkpoint("c2") });
    const changed = renderPanel(finished(taskRow, edit, saved, result, reply, docs, again));
    const second = [...changed.container.querySelectorAll<HTMLElement>('[data-row="say:completion_result"]')][1] as HTMLElement;
    await userEvent.click(within(second).getByRole("button", { name: "See new changes" }));
    // The workspace as the first result left it: the checkpoint before it.
    expect(changed.posted()).toEqual([{ type: "compareCheckpoint", ts: 3 }]);
  });
});
