import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ask, asking } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

/** A notification's "Show": the host asks the panel to take the keyboard to the question. */
describe("focusQuestion", () => {
  it("moves the keyboard to the first answer of the open question", async () => {
    const panel = renderPanel(asking(ask("command", 10, { text: "npm test" })));
    const run = await screen.findByRole("button", { name: "Run" });
    expect(document.activeElement).not.toBe(run);
    panel.send({ type: "focusQuestion", questionId: 10 });
    await waitFor(() => expect(document.activeElement).toBe(run));
  });

  it("a question answered meanwhile is not focused: the input box is", async () => {
    const panel = renderPanel(asking(ask("command", 10, { text: "npm test" })));
    await screen.findByRole("button", { name: "Run" });
    panel.send({ type: "questionChanged", question: undefined });
    panel.send({ type: "focusQuestion", questionId: 10 });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Message" })));
  });
});
