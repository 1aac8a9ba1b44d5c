/** The settings' Rules section: the host's list of rules files with a switch each, its warnings, and the custom instructions. */
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DEFAULT_AGENT_SETTINGS } from "../../../src/shared/settings";
import { makeSettings, makeState } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

function openSettings(agent = {}) {
  const panel = renderPanel(makeState({ settings: makeSettings({ agent: { ...DEFAULT_AGENT_SETTINGS, ...agent } }) }));
  panel.send({ type: "showView", view: "settings" });
  return panel;
}

describe("the Rules settings", () => {
  it("asks the host for the rules files and lists them with their switches and warnings", () => {
    const panel = openSettings();
    expect(panel.api.posted.filter((m) => m.type === "rules")).toHaveLength(1);
    expect(screen.getByText("Looking for rules files…")).toBeInTheDocument();
    panel.send({
      type: "rules",
      rules: { files: [{ name: "AGENTS.md", enabled: true }, { name: ".clinerules/old.md", enabled: false }, { name: ".windsurfrules", enabled: true, cut: true }], warnings: ["The rules are over the 48 KB limit, so these were left out: .windsurfrules."] },
    });
    const on = document.querySelector('vscode-checkbox[data-rule="AGENTS.md"]') as HTMLElement & { checked: boolean };
    const off = document.querySelector('vscode-checkbox[data-rule=".clinerules/old.md"]') as HTMLElement & { checked: boolean };
    expect(on.checked).toBe(true);
    expect(off.checked).toBe(false);
    expect(screen.getByText(/left out: over the size limit/)).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Rules warnings" })).toHaveTextContent("left out: .windsurfrules");
  });

  it("switching a file off sends the toggles with that file off, keeping the others", async () => {
    const panel = openSettings({ ruleToggles: { ".clinerules/old.md": false } });
    panel.send({ type: "rules", rules: { files: [{ name: "AGENTS.md", enabled: true }], warnings: [] } });
    panel.posted();
    const checkbox = document.querySelector('vscode-checkbox[data-rule="AGENTS.md"]') as HTMLElement;
    const label = await waitFor(() => checkbox.shadowRoot?.querySelector("label") ?? expect.fail("not rendered yet"));
    fireEvent.click(label);
    expect(panel.posted()).toEqual([{ type: "updateAgentSettings", settings: { ruleToggles: { ".clinerules/old.md": false, "AGENTS.md": false } } }]);
  });

  it("sends the custom instructions when the field is committed", () => {
    const panel = openSettings();
    panel.posted();
    const field = screen.getByLabelText("Custom instructions") as HTMLElement & { value: string };
    field.value = "Use tabs.";
    fireEvent.input(field);
    fireEvent.change(field);
    expect(panel.posted()).toEqual([{ type: "updateAgentSettings", settings: { customInstructions: "Use tabs." } }]);
  });
});
