/** The settings' Checkpoints section: the switch, the store's size as the host measures it, and deleting it all. */
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { DEFAULT_AGENT_SETTINGS } from "../../../src/shared/settings";
import { makeSettings, makeState } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

function openSettings(checkpoints = true) {
  const panel = renderPanel(makeState({ settings: makeSettings({ agent: { ...DEFAULT_AGENT_SETTINGS, checkpoints } }) }));
  panel.send({ type: "showView", view: "settings" });
  return panel;
}

const measures = (panel: ReturnType<typeof openSettings>) =>
  panel.api.posted.filter((message) => message.type === "checkpointStore" && message.action === "measure").length;

describe("the Checkpoints settings", () => {
  it("asks the host to measure the store each time the settings open, and shows the size it answers", () => {
    const panel = openSettings();
    expect(measures(panel)).toBe(1);
    expect(screen.getByRole("status", { name: "Checkpoint store size" })).toHaveTextContent("Measuring…");
    panel.send({ type: "checkpointStore", bytes: 5 * 1024 * 1024 + 300 * 1024 });
    expect(screen.getByRole("status", { name: "Checkpoint store size" })).toHaveTextContent("5.3 MB");

    panel.send({ type: "showView", view: "chat" });
    panel.send({ type: "showView", view: "settings" });
    expect(measures(panel)).toBe(2);
  });

  it("switches checkpoints off and on", async () => {
    const panel = openSettings(true);
    const checkbox = document.querySelector('vscode-checkbox[data-setting="checkpoints"]') as HTMLElement & { checked: boolean };
    expect(checkbox.checked).toBe(true);
    // The element renders its shadow content asynchronously; click its label as a person would.
    const label = await waitFor(() => checkbox.shadowRoot?.querySelector("label") ?? expect.fail("not rendered yet"));
    fireEvent.click(label);
    expect(panel.posted()).toEqual([{ type: "updateAgentSettings", settings: { checkpoints: false } }]);
  });

  it("deletes all checkpoints only on the second click, and Keep deletes nothing", async () => {
    const panel = openSettings();
    panel.send({ type: "checkpointStore", bytes: 2048 });
    await userEvent.click(await screen.findByRole("button", { name: "Delete all checkpoints" }));
    expect(panel.posted()).toEqual([]);
    await userEvent.click(await screen.findByRole("button", { name: "Keep" }));
    expect(panel.posted()).toEqual([]);

    await userEvent.click(await screen.findByRole("button", { name: "Delete all checkpoints" }));
    await userEvent.click(await screen.findByRole("button", { name: "Confirm: delete all checkpoints" }));
    expect(panel.posted()).toEqual([{ type: "checkpointStore", action: "clean" }]);
    expect(await screen.findByRole("button", { name: "Delete all checkpoints" })).toBeInTheDocument();
    // The host answers a clean with the store's new size.
    panel.send({ type: "checkpointStore", bytes: 0 });
    expect(screen.getByRole("status", { name: "Checkpoint store size" })).toHaveTextContent("0 B");
  });
});
