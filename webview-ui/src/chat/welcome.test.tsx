import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { HistoryItem } from "../../../src/shared/protocol";
import { recentTasks } from "../history/history-status";
import { ask, makeState, questionOf, say, TASK } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const ROOT = "/work/project";
const usage = { tokensIn: 10, tokensOut: 5, cacheReads: 0, cacheWrites: 0, cost: 0.0123 };
const item = (id: string, startedAt: number, extra: Partial<HistoryItem> = {}): HistoryItem => ({ id, text: `Task ${id}`, startedAt, usage, status: "completed", workspace: ROOT, ...extra });

describe("recentTasks", () => {
  it("takes this workspace's three most recently started tasks, newest first", () => {
    const history = [item("a", 1), item("b", 5), item("other", 9, { workspace: "/elsewhere" }), item("c", 3), item("d", 4), item("legacy", 8, { workspace: undefined })];
    expect(recentTasks(history, ROOT).map((i) => i.id)).toEqual(["b", "d", "c"]);
    expect(recentTasks(history, ROOT, 1).map((i) => i.id)).toEqual(["b"]);
    expect(recentTasks(history, "")).toEqual([]);
  });
});

describe("the start screen", () => {
  it("lists this workspace's recent tasks, each opened with a click, and View all opens History", async () => {
    const history = [item("a", 1_000, { text: "Fix the login" }), item("b", 2_000, { text: "Write the notes", status: "failed" }), item("c", 3_000), item("d", 500), item("x", 9_000, { workspace: "/elsewhere" })];
    const panel = renderPanel(makeState({ history, workspace: ROOT }));
    const recent = screen.getByRole("navigation", { name: "Recent tasks" });
    const buttons = within(recent).getAllByRole("button").filter((b) => b.textContent !== "View all");
    expect(buttons.map((b) => b.querySelector(".recent-task-text")?.textContent)).toEqual(["Task c", "Write the notes", "Fix the login"]);
    expect(buttons[1]?.textContent).toContain("Failed");
    expect(buttons[1]?.textContent).toContain("$0.0123");
    await userEvent.click(buttons[1] as HTMLElement);
    expect(panel.posted()).toEqual([{ type: "resumeTask", id: "b" }]);
    await userEvent.click(within(recent).getByRole("button", { name: "View all" }));
    expect(panel.store.getState().view).toBe("history");
  });

  it("lists nothing when this workspace has no saved task", () => {
    renderPanel(makeState({ history: [item("x", 9_000, { workspace: "/elsewhere" })], workspace: ROOT }));
    expect(screen.queryByRole("navigation", { name: "Recent tasks" })).toBeNull();
    expect(screen.getByText("What should Tandem do?")).toBeInTheDocument();
  });
});

describe("while the interrupted task is reopened", () => {
  it("says Restoring…, invites no new task and takes none, until the host says it is over", async () => {
    const panel = renderPanel(makeState({ restoring: true, history: [item("a", 1_000)], workspace: ROOT }));
    expect(screen.getByRole("heading", { name: "Restoring the interrupted task…" }).closest("[aria-busy]")).toHaveAttribute("aria-busy", "true");
    expect(screen.queryByText("What should Tandem do?")).toBeNull();
    const box = screen.getByRole("textbox", { name: "Message" });
    expect(box).toBeDisabled();
    expect(box).toHaveAttribute("placeholder", "Restoring the interrupted task…");
    // The task's own rows arrive, then the host says it is over: its chat shows, with its question.
    panel.send({ type: "taskChanged", task: TASK });
    panel.send({ type: "messagesLoaded", messages: [say("task", 1, { text: TASK.text }), ask("resume_task", 2, { text: "Resume it?" })] });
    panel.send({ type: "questionChanged", question: questionOf(ask("resume_task", 2)) });
    panel.send({ type: "restoring", restoring: false });
    expect(screen.queryByText("Restoring the interrupted task…")).toBeNull();
    expect(box).toBeEnabled();
    expect(await screen.findByRole("button", { name: "Resume Task" })).toBeInTheDocument();
    expect(panel.posted()).toEqual([]);
  });
});
