import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeState } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";
import { ZERO_USAGE } from "../../../src/shared/usage";

const history = [
  { id: "old", text: "Rename the config loader", startedAt: 1_000, usage: { ...ZERO_USAGE, cost: 0.5, tokensIn: 1000, tokensOut: 100 } },
  { id: "new", text: "Add a retry to the fetcher", startedAt: 2_000, usage: { ...ZERO_USAGE, cost: 0.25, tokensIn: 2000, tokensOut: 200 } },
];

describe("history view", () => {
  it("lists saved tasks newest first and resumes one", async () => {
    const panel = renderPanel(makeState());
    for (const item of history) panel.send({ type: "historyItemChanged", item });
    panel.send({ type: "showView", view: "history" });
    const entries = screen.getAllByRole("listitem");
    expect(entries.map((entry) => entry.querySelector(".history-text")?.textContent)).toEqual([
      "Add a retry to the fetcher",
      "Rename the config loader",
    ]);
    await userEvent.click(await within(entries[1]!).findByRole("button", { name: "Resume" }));
    expect(panel.posted()).toEqual([{ type: "resumeTask", id: "old" }]);
    expect(screen.queryByRole("heading", { name: "History" })).toBeNull();
  });

  it("deletes a task only after a second click", async () => {
    const panel = renderPanel(makeState({ history }));
    panel.send({ type: "showView", view: "history" });
    const entry = screen.getAllByRole("listitem")[0]!;
    await userEvent.click(await within(entry).findByRole("button", { name: "Delete" }));
    expect(panel.posted()).toEqual([]);
    await userEvent.click(await within(entry).findByRole("button", { name: "Confirm delete" }));
    expect(panel.posted()).toEqual([{ type: "deleteTask", id: "new" }]);
  });

  it("says so when there is no history", () => {
    const panel = renderPanel(makeState());
    panel.send({ type: "showView", view: "history" });
    expect(screen.getByText("No saved tasks yet.")).toBeInTheDocument();
  });
});
