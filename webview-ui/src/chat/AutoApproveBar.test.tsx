import { describe, expect, it } from "vitest";
import { AUTO_APPROVAL_SWITCHES } from "../../../src/shared/auto-approval";
import { makeSettings, makeState } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

describe("the auto-approve menu", () => {
  it("shows one checkbox per switch of the shared table, in its order, with its label", () => {
    renderPanel(makeState());
    const boxes = [...document.querySelectorAll(".auto-approve-switches vscode-checkbox")];
    expect(boxes.map((box) => box.getAttribute("data-setting"))).toEqual(AUTO_APPROVAL_SWITCHES.map((s) => s.key));
    expect(boxes.map((box) => box.textContent?.trim())).toEqual(AUTO_APPROVAL_SWITCHES.map((s) => s.label));
  });

  it("sums up the switches that are on by their short names", () => {
    const settings = makeSettings();
    settings.agent.autoApproval = { ...settings.agent.autoApproval, readFiles: true, editFiles: true, useMcp: true };
    renderPanel(makeState({ settings }));
    expect((document.querySelector(".auto-approve-panel") as HTMLElement & { title: string }).title).toBe("Auto-approve: Read, Edit, MCP");
  });
});
