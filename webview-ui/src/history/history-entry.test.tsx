/** A History entry says how its task ended and shows the totals its task header showed. */
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { HistoryItem } from "../../../src/shared/protocol";
import { makeState, say, TASK } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const base = { text: "Write the report", startedAt: 1_000, workspace: "/work/project", usage: { cost: 0.0312, tokensIn: 1_500, tokensOut: 240, cacheWrites: 3_700, cacheReads: 5_000 } };

function entries(history: HistoryItem[], open?: string) {
  const panel = renderPanel(makeState({ history, task: open ? { ...TASK, id: open } : undefined, running: open !== undefined }));
  panel.send({ type: "showView", view: "history" });
  return screen.getAllByRole("listitem");
}

describe("a History entry", () => {
  it("shows the task's status, and offers to open a completed task rather than resume it", async () => {
    const [completed, failed, interrupted, running] = entries(
      [
        { ...base, id: "a", startedAt: 4, status: "completed" },
        { ...base, id: "b", startedAt: 3, status: "failed" },
        { ...base, id: "c", startedAt: 2, status: "running" },
        { ...base, id: "d", startedAt: 1, status: "running" },
      ],
      "d",
    );
    expect(within(completed!).getByText("Completed")).toBeInTheDocument();
    expect(await within(completed!).findByRole("button", { name: "Open" })).toBeInTheDocument();
    expect(within(failed!).getByText("Failed")).toBeInTheDocument();
    expect(await within(failed!).findByRole("button", { name: "Resume" })).toBeInTheDocument();
    // Still "running" in the index but not open here: its host went away under it.
    expect(within(interrupted!).getByText("Interrupted")).toBeInTheDocument();
    expect(within(running!).getByText("Running")).toBeInTheDocument();
  });

  it("shows the same totals, worded the same, as the task header", () => {
    const request = say("api_req_started", 2, { apiRequest: { tokensIn: 1_500, tokensOut: 240, cacheWrites: 3_700, cacheReads: 5_000, cost: 0.0312 } });
    const panel = renderPanel(makeState({ task: TASK, running: true, messages: [say("task", 1, { text: TASK.text }), request], history: [{ ...base, id: TASK.id, status: "running" }] }));
    const header = screen.getByRole("region", { name: "Task" });
    const shown = (root: HTMLElement) => within(root).getAllByTitle(/Tokens in \/ out|Cache writes \/ reads|Total cost/).map((e) => e.textContent);
    const inHeader = shown(header);
    panel.send({ type: "showView", view: "history" });
    expect(shown(screen.getAllByRole("listitem")[0]!)).toEqual(inHeader);
    expect(inHeader).toEqual(["Tokens ↑ 1.5k ↓ 240", "Cache +3.7k → 5k", "$0.0312"]);
  });
});
