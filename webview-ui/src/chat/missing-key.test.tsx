/** A task typed before any key is set is kept and starts once one is saved; the banner lasts exactly that long. */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeSettings, makeState } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const noKey = makeSettings({ needsApiKey: true });
const withKey = makeSettings({ needsApiKey: false, hasApiKey: { anthropic: true, openai: false } });
const banner = () => screen.queryByText(/No API key is set for Anthropic/);

describe("before any key is set", () => {
  it("keeps the task, shows the settings, and starts the task once a key is saved", async () => {
    const panel = renderPanel(makeState({ settings: noKey }));
    expect(banner()).toBeInTheDocument();
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "Fix the failing build{Enter}");
    expect(panel.posted()).toEqual([]);
    expect(panel.store.getState().view).toBe("settings");
    expect(within(screen.getByLabelText("Queued messages", { selector: "div" })).getByText("Fix the failing build")).toBeInTheDocument();
    expect(screen.getByText(/Waiting for an API key/)).toBeInTheDocument();

    panel.send({ type: "settingsChanged", settings: withKey });
    expect(panel.posted()).toEqual([{ type: "newTask", text: "Fix the failing build", images: [] }]);
    expect(banner()).toBeNull();
    expect(panel.store.getState().view).toBe("chat");
    expect(screen.queryByLabelText("Queued messages")).toBeNull();
  });

  it("keeps the held task across a reload of the panel", async () => {
    const first = renderPanel(makeState({ settings: noKey }));
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "Write the docs{Enter}");
    const saved = first.api.getState();
    first.unmount();
    const again = renderPanel(makeState({ settings: noKey }), saved);
    expect(again.posted()).toEqual([]);
    again.send({ type: "settingsChanged", settings: withKey });
    expect(again.posted()).toEqual([{ type: "newTask", text: "Write the docs", images: [] }]);
  });

  it("offers the settings from the banner, and no banner once a key is set", async () => {
    const panel = renderPanel(makeState({ settings: noKey }));
    await userEvent.click(screen.getByRole("button", { name: "Open settings" }));
    expect(panel.store.getState().view).toBe("settings");
    panel.send({ type: "settingsChanged", settings: withKey });
    expect(banner()).toBeNull();
  });

  it("sends at once when a key is set", async () => {
    const panel = renderPanel(makeState({ settings: withKey }));
    expect(banner()).toBeNull();
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "Go{Enter}");
    expect(panel.posted()).toEqual([{ type: "newTask", text: "Go", images: [] }]);
  });
});
