import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { WebviewState } from "../../../src/shared/protocol";
import type { SandboxStatus } from "../../../src/shared/sandbox-status";
import { DEFAULT_SANDBOX_SETTINGS } from "../../../src/shared/settings";
import { makeSandbox, makeSettings, makeState, NO_BWRAP, unavailableSandbox } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

function openSettings(state: Partial<WebviewState> = {}, sandbox?: SandboxStatus) {
  const panel = renderPanel(makeState(state));
  if (sandbox) panel.send({ type: "sandboxChanged", sandbox });
  panel.send({ type: "showView", view: "settings" });
  return panel;
}

const stateBox = () => screen.getByRole("status", { name: "Sandbox state" });

function enter(field: HTMLElement, value: string) {
  fireEvent.input(field, { target: { value } });
  fireEvent(field, new Event("change"));
}

describe("the settings view's sandbox section", () => {
  it("shows the sandbox on, its technology, network, domains, writable folders and denied reads", () => {
    openSettings({}, makeSandbox({ writableFolders: ["~/.npm"] }));
    const box = stateBox();
    expect(within(box).getByText("On: commands run in the sandbox (bubblewrap).")).toBeInTheDocument();
    expect(within(box).getByText("Only the allow list")).toBeInTheDocument();
    expect(within(box).getByText("the workspace, the task's temp folder, ~/.npm")).toBeInTheDocument();
    // The long lists fold under their counts.
    expect(within(box).getByText("Allowed domains (2)")).toBeInTheDocument();
    expect(within(within(box).getByRole("list", { name: "Allowed domains", hidden: true })).getAllByRole("listitem", { hidden: true }).map((li) => li.textContent)).toEqual([
      "registry.npmjs.org",
      "pypi.org",
    ]);
    expect(within(box).getByText("Denied reads (2)")).toBeInTheDocument();
    expect(within(box).getByText("~/.ssh", { exact: true })).toBeInTheDocument();
  });

  it("says once that no sandbox is available, and why", () => {
    openSettings({}, unavailableSandbox());
    expect(within(stateBox()).getByText("Not available on this machine: commands run unconfined and the command guard alone judges them.")).toBeInTheDocument();
    expect(screen.getAllByText(NO_BWRAP)).toHaveLength(1);
  });

  it("says that commands are refused when the mode is on and no sandbox is available", () => {
    openSettings({}, unavailableSandbox({ mode: "on", refusesCommands: true }));
    expect(within(stateBox()).getByText(/Tandem refuses to run commands/)).toBeInTheDocument();
  });

  it("waits for the host's check rather than guess, then shows what the host posts", () => {
    const panel = openSettings();
    expect(screen.getByText("Waiting for the sandbox check…")).toBeInTheDocument();
    panel.send({ type: "sandboxChanged", sandbox: makeSandbox({ mode: "off", active: false, reason: 'tandem.sandbox.mode is "off".' }) });
    expect(within(stateBox()).getByText("Off: commands run unconfined (bubblewrap is available).")).toBeInTheDocument();
  });

  it("sends the mode and network with the other sandbox settings unchanged", async () => {
    const panel = openSettings({}, makeSandbox());
    const mode = screen.getByLabelText("Sandbox") as HTMLSelectElement;
    await waitFor(() => expect(mode.value).toBe("auto"));
    mode.value = "off";
    fireEvent(mode, new Event("change"));
    const network = screen.getByLabelText("Network") as HTMLSelectElement;
    await waitFor(() => expect(network.value).toBe("allowList"));
    network.value = "none";
    fireEvent(network, new Event("change"));
    expect(panel.posted()).toEqual([
      { type: "updateAgentSettings", settings: { sandbox: { ...DEFAULT_SANDBOX_SETTINGS, mode: "off" } } },
      { type: "updateAgentSettings", settings: { sandbox: { ...DEFAULT_SANDBOX_SETTINGS, network: "none" } } },
    ]);
  });

  it("checks the domains before sending them, naming the fix, and sends the folders as a list", () => {
    const settings = makeSettings();
    settings.agent.sandbox = { ...DEFAULT_SANDBOX_SETTINGS, allowedDomains: ["api.github.com"] };
    const panel = openSettings({ settings }, makeSandbox());
    const domains = screen.getByLabelText("Extra allowed domains") as HTMLInputElement;
    expect(domains.value).toBe("api.github.com");
    enter(domains, "api.github.com, https://pypi.example.com/simple");
    expect(screen.getByRole("alert")).toHaveTextContent('"https://pypi.example.com/simple" has a scheme: write the domain alone, "pypi.example.com".');
    expect(panel.posted()).toEqual([]);
    enter(domains, "api.github.com, *.example.com");
    enter(screen.getByLabelText("Extra writable folders"), "~/.npm, ~/.cache,");
    expect(panel.posted()).toEqual([
      { type: "updateAgentSettings", settings: { sandbox: { ...settings.agent.sandbox, allowedDomains: ["api.github.com", "*.example.com"] } } },
      { type: "updateAgentSettings", settings: { sandbox: { ...settings.agent.sandbox, writableFolders: ["~/.npm", "~/.cache"] } } },
    ]);
  });
});
