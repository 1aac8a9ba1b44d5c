import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { SandboxStatus } from "../../../src/shared/sandbox-status";
import { makeSandbox, makeSettings, makeState, unavailableSandbox } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";
import { yoloWarning } from "./yolo-warning";

/** The panel as the host leaves it: the state, then the sandbox feed's post. */
function panelWith(sandbox: SandboxStatus, state = makeState()) {
  const panel = renderPanel(state);
  panel.send({ type: "sandboxChanged", sandbox });
  return panel;
}

const warning = () => document.querySelector(".yolo-warning")?.textContent ?? "";

describe("the YOLO warning says whether commands are sandboxed", () => {
  it("with the sandbox on: commands confined, and a request to leave it still asks", () => {
    panelWith(makeSandbox());
    expect(warning()).toContain("Commands run in the sandbox (bubblewrap)");
    expect(warning()).toContain("reach only the 2 allowed domains");
    expect(warning()).toContain("A run outside the sandbox still asks.");
    expect(warning()).not.toContain("alone judges");
  });

  it("without a sandbox: says so once, with the host's reason, and that the guard alone judges", () => {
    panelWith(unavailableSandbox());
    expect(warning()).toContain(
      "No sandbox on this machine: bubblewrap (bwrap) is not installed: apt-get install bubblewrap socat; the command guard alone judges commands",
    );
    expect(warning().split("No sandbox").length - 1).toBe(1);
    expect(warning()).not.toContain("Commands run in the sandbox");
  });

  it("follows the host when the sandbox changes", () => {
    const panel = panelWith(unavailableSandbox());
    panel.send({ type: "sandboxChanged", sandbox: makeSandbox({ network: "none" }) });
    expect(warning()).toContain("Commands run in the sandbox (bubblewrap)");
    expect(warning()).toContain("reach no network");
  });

  it("keeps the sandbox across a new state (the feed owns it, not the state)", () => {
    const panel = renderPanel(makeState());
    panel.send({ type: "sandboxChanged", sandbox: makeSandbox() });
    panel.send({ type: "state", state: makeState() });
    expect(warning()).toContain("Commands run in the sandbox");
  });

  it.each([
    [unavailableSandbox({ mode: "on", refusesCommands: true }), 'tandem.sandbox.mode is "on", so Tandem refuses to run commands'],
    [makeSandbox({ mode: "off", active: false }), "The sandbox is off (tandem.sandbox.mode), so the command guard alone judges commands"],
    [undefined, "with no sandbox, any command it cannot read"],
  ])("%#: %s", (sandbox, text) => {
    expect(yoloWarning(sandbox)).toContain(text);
  });

  it("says when commands outside the sandbox run without asking", () => {
    expect(yoloWarning(makeSandbox(), true)).toContain("A run outside the sandbox does not ask (your switch).");
  });
});

describe("the 'Run commands outside the sandbox' switch", () => {
  it("stays usable in YOLO, which does not approve such commands, and sends the switch", async () => {
    const settings = makeSettings();
    settings.agent.yolo = true;
    const panel = panelWith(makeSandbox(), makeState({ settings }));
    const outside = document.querySelector('vscode-checkbox[data-setting="runOutsideSandbox"]') as HTMLElement & { disabled: boolean };
    expect(outside).toHaveTextContent("Run commands outside the sandbox");
    expect(outside.disabled).toBe(false);
    expect((document.querySelector('vscode-checkbox[data-setting="editFiles"]') as HTMLElement & { disabled: boolean }).disabled).toBe(true);
    const label = await waitFor(() => outside.shadowRoot?.querySelector("label") ?? expect.fail("not rendered yet"));
    fireEvent.click(label);
    expect(panel.posted()).toEqual([
      { type: "updateAgentSettings", settings: { autoApproval: { ...settings.agent.autoApproval, runOutsideSandbox: true } } },
    ]);
    expect(screen.getByText(/YOLO is on/)).toBeInTheDocument();
  });
});
