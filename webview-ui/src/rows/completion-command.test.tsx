/** The result's suggested command: offered on the completion with Run, run only by the answer, then said what became of it. */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ask, asking, runningWith, say } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const result = say("completion_result", 2, { text: "The page is built." });
const offer = ask("command", 3, { text: "npm start", tool: { tool: "attempt_completion", content: "npm start" } });
const rowOf = (container: HTMLElement) => container.querySelector<HTMLElement>('[data-row="ask:command"]');

describe("a result's suggested command", () => {
  it("is offered under the result with Run and Skip; Run answers run", async () => {
    const panel = renderPanel(asking(result, offer));
    const row = rowOf(panel.container);
    expect(row && within(row).getByText("Run this command to see the result?")).toBeInTheDocument();
    expect(row?.textContent).toContain("npm start");
    expect(await screen.findByRole("button", { name: "Skip" })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole("button", { name: "Run" }));
    expect(panel.posted()).toEqual([{ type: "answer", answer: { questionId: 3, choice: "run" } }]);
  });

  it("says it ran once approved, and that it was skipped otherwise", () => {
    const ran = renderPanel(runningWith(result, { ...offer, outcome: "yes" }));
    expect(rowOf(ran.container)?.querySelector(".row-title")?.textContent).toBe("Ran the command to see the result");
    ran.unmount();
    const skipped = renderPanel(runningWith(result, { ...offer, outcome: "no" }));
    expect(rowOf(skipped.container)?.querySelector(".row-title")?.textContent).toBe("Did not run the command (skipped)");
  });
});
