import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeSettings, makeState } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

/** Types into a vscode-textfield as its inner input would report it, then commits (blur/Enter). */
function enter(field: HTMLElement, value: string, commit = true) {
  fireEvent.input(field, { target: { value } });
  if (commit) fireEvent(field, new Event("change"));
}

function openSettings(settings = makeSettings()) {
  const panel = renderPanel(makeState({ settings }));
  panel.send({ type: "showView", view: "settings" });
  return panel;
}

describe("settings view", () => {
  it("names the control inside each dropdown's and text field's shadow root, where a screen reader meets it", async () => {
    openSettings();
    const hosts = [...document.querySelectorAll<HTMLElement>(".settings-view vscode-single-select, .settings-view vscode-textfield, .settings-view vscode-textarea")];
    expect(hosts.length).toBeGreaterThanOrEqual(8);
    for (const host of hosts) {
      const name = host.getAttribute("aria-label");
      await waitFor(() => {
        const inner = host.shadowRoot?.querySelector('[role="combobox"], input, textarea');
        expect(inner, `the control inside ${host.tagName.toLowerCase()} "${name}"`).toHaveAttribute("aria-label", name);
      });
    }
  });

  it("opens from the host's showView (the view's title-bar gear) and Done goes back to the chat", async () => {
    const panel = renderPanel(makeState());
    // The view's title bar has the gear; the panel repeats no toolbar of its own.
    expect(screen.queryByRole("navigation")).toBeNull();
    expect(screen.queryByRole("button", { name: "Settings" })).toBeNull();
    panel.send({ type: "showView", view: "settings" });
    expect(screen.getByRole("heading", { name: "Settings" })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole("button", { name: "Done" }));
    expect(screen.queryByRole("heading", { name: "Settings" })).toBeNull();
    expect(screen.getByRole("textbox", { name: "Message" })).toBeVisible();
  });

  it("never shows a stored key, sends a new one write-only and empties the field", async () => {
    const panel = openSettings(makeSettings({ hasApiKey: { anthropic: true, openai: false } }));
    expect(screen.getByText("A key is stored for Anthropic. Enter a new one to replace it.")).toBeInTheDocument();
    const field = screen.getByLabelText("API key") as HTMLInputElement;
    expect(field.type).toBe("password");
    expect(field.value).toBe("");

    enter(field, "sk-ant-secret-123", false);
    await userEvent.click(await screen.findByRole("button", { name: "Save key" }));
    expect(panel.posted()).toEqual([{ type: "setApiKey", provider: "anthropic", apiKey: "sk-ant-secret-123" }]);
    await waitFor(() => expect(field.value).toBe(""));
    // Nothing keeps the key: not the page, not the state VS Code saves for the webview.
    expect(document.body.innerHTML).not.toContain("sk-ant-secret-123");
    expect(JSON.stringify(panel.api.getState() ?? null)).not.toContain("sk-ant-secret-123");
  });

  it("refuses to save an empty key", async () => {
    const panel = openSettings();
    expect(screen.getByText("No key is stored for Anthropic.")).toBeInTheDocument();
    await userEvent.click(await screen.findByRole("button", { name: "Save key" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Enter a key first.");
    expect(panel.posted()).toEqual([]);
  });

  it("checks the base URL before sending it", () => {
    const panel = openSettings();
    const field = screen.getByLabelText("Base URL");
    enter(field, "not a url");
    expect(screen.getByRole("alert")).toHaveTextContent('"not a url" is not a URL.');
    expect(panel.posted()).toEqual([]);
    enter(field, "http://127.0.0.1:8080/v1");
    expect(screen.queryByRole("alert")).toBeNull();
    expect(panel.posted()).toEqual([{ type: "updateApiSettings", settings: { baseUrl: "http://127.0.0.1:8080/v1" } }]);
  });

  it("sends the Plan mode model (trimmed) when committed", () => {
    const panel = openSettings();
    enter(screen.getByLabelText("Plan mode model"), " claude-opus-5-5 ");
    expect(panel.posted()).toEqual([{ type: "updateAgentSettings", settings: { planModeModelId: "claude-opus-5-5" } }]);
  });

  it("sends the mistake limit, context window override and thinking budget as numbers", () => {
    const panel = openSettings();
    enter(screen.getByLabelText("Mistake limit"), "0");
    expect(screen.getByRole("alert")).toHaveTextContent("Enter 1 or more.");
    enter(screen.getByLabelText("Mistake limit"), "5");
    enter(screen.getByLabelText("Context window override (tokens)"), "64000");
    enter(screen.getByLabelText("Thinking budget (tokens)"), "100");
    expect(screen.getByRole("alert")).toHaveTextContent("at least 1024");
    enter(screen.getByLabelText("Thinking budget (tokens)"), "2048");
    expect(panel.posted()).toEqual([
      { type: "updateAgentSettings", settings: { mistakeLimit: 5 } },
      { type: "updateApiSettings", settings: { contextWindowOverride: 64000 } },
      { type: "updateApiSettings", settings: { thinkingBudgetTokens: 2048 } },
    ]);
  });

  it("switches automatic condensing off and on", async () => {
    const panel = openSettings();
    const checkbox = document.querySelector('vscode-checkbox[data-setting="autoCondense"]') as HTMLElement & { checked: boolean };
    expect(checkbox.checked).toBe(true);
    const label = await waitFor(() => checkbox.shadowRoot?.querySelector("label") ?? expect.fail("not rendered yet"));
    fireEvent.click(label);
    expect(panel.posted()).toEqual([{ type: "updateAgentSettings", settings: { autoCondense: false } }]);
  });

  it("lists the provider's known models with context window and prices, and takes a custom id", () => {
    const panel = openSettings();
    expect(screen.getByText("200k context · in $3.00 · out $15.00 · cache write $3.75 · read $0.30 per M tokens")).toBeInTheDocument();
    const select = screen.getByLabelText("Known models") as HTMLSelectElement;
    expect(select.querySelectorAll("vscode-option")).toHaveLength(2); // "Other model…" and the one Anthropic model
    enter(screen.getByLabelText("Model ID"), "my-fine-tune");
    expect(panel.posted()).toEqual([{ type: "updateApiSettings", settings: { modelId: "my-fine-tune" } }]);
  });

  it("shows the default model as chosen and known when no model is set (the host names it), and a dated id as the model it is priced as", async () => {
    const { unmount } = openSettings(makeSettings({ api: { provider: "anthropic" }, model: { id: "claude-test", isDefault: true, catalogueId: "claude-test" } }));
    const select = screen.getByLabelText("Known models") as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe("claude-test"));
    expect(screen.getByText(/^claude-test is Anthropic's default model\. 200k context/)).toBeInTheDocument();
    expect(screen.queryByText(/Not a known model/)).toBeNull();
    expect((screen.getByLabelText("Model ID") as HTMLInputElement).placeholder).toBe("claude-test (the default)");
    unmount();
    openSettings(makeSettings({ api: { provider: "anthropic", modelId: "claude-test-20990101" }, model: { id: "claude-test-20990101", isDefault: false, catalogueId: "claude-test" } }));
    await waitFor(() => expect((screen.getByLabelText("Known models") as HTMLSelectElement).value).toBe("claude-test"));
    expect(screen.getByText(/^claude-test-20990101 is priced as claude-test\. 200k context/)).toBeInTheDocument();
  });

  it("says a model the catalogue does not know is unknown", () => {
    openSettings(makeSettings({ api: { provider: "anthropic", modelId: "my-fine-tune" }, model: { id: "my-fine-tune", isDefault: false } }));
    expect(screen.getByText("Not a known model: prices and context window come from your overrides.")).toBeInTheDocument();
  });

  it("switches the provider", async () => {
    const panel = openSettings();
    const select = screen.getByLabelText("Provider") as HTMLSelectElement;
    // The select learns its options once its slot renders.
    await waitFor(() => expect(select.value).toBe("anthropic"));
    select.value = "openai";
    fireEvent(select, new Event("change"));
    expect(panel.posted()).toEqual([{ type: "updateApiSettings", settings: { provider: "openai" } }]);
  });

  it("offers the OpenAI API choice only for OpenAI, showing Automatic when unset", async () => {
    const { unmount } = openSettings();
    expect(screen.queryByLabelText("OpenAI API")).toBeNull();
    unmount();
    const panel = openSettings(makeSettings({ api: { provider: "openai", modelId: "gpt-test" } }));
    const select = screen.getByLabelText("OpenAI API") as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe("auto"));
    select.value = "responses";
    fireEvent(select, new Event("change"));
    expect(panel.posted()).toEqual([{ type: "updateApiSettings", settings: { openAiApi: "responses" } }]);
  });

  it("sends the spending caps as numbers, checks the dollars, and empties a cap to none", () => {
    const panel = openSettings();
    const cost = screen.getByLabelText("Cost cap per task (USD)");
    enter(cost, "lots");
    expect(screen.getByRole("alert")).toHaveTextContent('"lots" is not an amount in dollars, such as 2.50.');
    expect(panel.posted()).toEqual([]);
    enter(cost, "2.50");
    enter(screen.getByLabelText("Request cap per task"), "40");
    expect(panel.posted()).toEqual([
      { type: "updateAgentSettings", settings: { maxCostPerTask: 2.5 } },
      { type: "updateAgentSettings", settings: { maxRequestsPerTask: 40 } },
    ]);
  });
});
