/** The settings' Focus chain section: the switch and the reminder interval. */
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DEFAULT_AGENT_SETTINGS } from "../../../src/shared/settings";
import { makeSettings, makeState } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

function openSettings() {
  const panel = renderPanel(makeState({ settings: makeSettings({ agent: { ...DEFAULT_AGENT_SETTINGS } }) }));
  panel.send({ type: "showView", view: "settings" });
  return panel;
}

describe("the Focus chain settings", () => {
  it("switches the checklist off", async () => {
    const panel = openSettings();
    const checkbox = document.querySelector('vscode-checkbox[data-setting="focusChain"]') as HTMLElement & { checked: boolean };
    expect(checkbox.checked).toBe(true);
    const label = await waitFor(() => checkbox.shadowRoot?.querySelector("label") ?? expect.fail("not rendered yet"));
    fireEvent.click(label);
    expect(panel.posted()).toEqual([{ type: "updateAgentSettings", settings: { focusChain: false } }]);
  });

  it("sends a valid reminder interval and refuses one out of range", () => {
    const panel = openSettings();
    const field = screen.getByLabelText("Reminder interval (requests)") as HTMLInputElement;
    expect(field.value).toBe("6");
    field.value = "0";
    fireEvent.input(field);
    fireEvent.change(field);
    expect(screen.getByText("Enter 1 or more.")).toBeInTheDocument();
    field.value = "101";
    fireEvent.input(field);
    fireEvent.change(field);
    expect(screen.getByText("Enter 100 or less.")).toBeInTheDocument();
    field.value = "10";
    fireEvent.input(field);
    fireEvent.change(field);
    expect(panel.posted()).toEqual([{ type: "updateAgentSettings", settings: { focusChainReminderInterval: 10 } }]);
  });
});
