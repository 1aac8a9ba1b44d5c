/**
 * The `/` menu in the whole panel: a leading `/` asks the host for the commands, the host's answer
 * is offered in its order and filtered as the person types, the keys move and pick, Escape
 * closes, and the picked command lands at the start of the text. The host's part is played with
 * `slashCommands` messages.
 */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { SlashCommandView } from "../../../src/shared/protocol";
import { makeState } from "../test-support/fixtures";
import { renderPanel, type PanelHarness } from "../test-support/render-panel";

const messageBox = () => screen.getByRole("textbox", { name: "Message" });
const menu = () => screen.queryByRole("listbox", { name: "Slash commands" });
const labels = () => within(menu()!).getAllByRole("option").map((o) => o.querySelector(".mention-label")?.textContent);
const selectedOption = () => within(menu()!).getAllByRole("option").find((o) => o.getAttribute("aria-selected") === "true")?.querySelector(".mention-label")?.textContent;

const COMMANDS: SlashCommandView[] = [
  { name: "newtask", description: "Hand this task's context to a new task", kind: "builtin" },
  { name: "compact", description: "Condense the conversation now", kind: "builtin" },
  { name: "newrule", description: "Write a rules file from this conversation", kind: "builtin" },
  { name: "release", description: ".clinerules/workflows/release.md", kind: "workflow" },
  { name: "prerelease-check", description: "global/prerelease-check.md", kind: "workflow" },
];

const asked = (panel: PanelHarness) => panel.posted().filter((m) => m.type === "slashCommands").length;
const sent = (panel: PanelHarness) => panel.posted().filter((m) => m.type === "newTask");

describe("the / menu", () => {
  it("a leading / asks the host once and offers its commands in order, each with its description", async () => {
    const panel = renderPanel(makeState());
    await userEvent.type(messageBox(), "/");
    expect(asked(panel)).toBe(1);
    expect(menu()).toBeNull();
    panel.send({ type: "slashCommands", commands: COMMANDS });
    expect(labels()).toEqual(["/newtask", "/compact", "/newrule", "/release", "/prerelease-check"]);
    expect(within(menu()!).getAllByRole("option")[3]).toHaveTextContent(".clinerules/workflows/release.md");
    await userEvent.type(messageBox(), "n");
    expect(asked(panel)).toBe(1);
  });

  it("filters as the person types (names that start with it first); arrow down and Enter insert /name and a space without sending", async () => {
    const panel = renderPanel(makeState());
    await userEvent.type(messageBox(), "/rel");
    panel.send({ type: "slashCommands", commands: COMMANDS });
    expect(labels()).toEqual(["/release", "/prerelease-check"]);
    expect(selectedOption()).toBe("/release");
    await userEvent.keyboard("{ArrowDown}");
    expect(selectedOption()).toBe("/prerelease-check");
    await userEvent.keyboard("{ArrowUp}");
    await userEvent.keyboard("{Enter}");
    expect(messageBox()).toHaveValue("/release ");
    expect(menu()).toBeNull();
    expect(sent(panel)).toEqual([]);
    await userEvent.type(messageBox(), "v2{Enter}");
    expect(sent(panel)).toEqual([{ type: "newTask", text: "/release v2", images: [] }]);
  });

  it("Tab picks too; Escape closes it, and Enter then sends what was typed", async () => {
    const panel = renderPanel(makeState());
    await userEvent.type(messageBox(), "/new");
    panel.send({ type: "slashCommands", commands: COMMANDS });
    await userEvent.keyboard("{Tab}");
    expect(messageBox()).toHaveValue("/newtask ");
    await userEvent.clear(messageBox());
    await userEvent.type(messageBox(), "/comp");
    expect(labels()).toEqual(["/compact"]);
    await userEvent.keyboard("{Escape}");
    expect(menu()).toBeNull();
    await userEvent.keyboard("{Enter}");
    expect(sent(panel)).toEqual([{ type: "newTask", text: "/comp", images: [] }]);
  });

  it("does not open for a / later in the text, nor once the command is followed by a space; an unknown command sends as typed", async () => {
    const panel = renderPanel(makeState());
    await userEvent.type(messageBox(), "see a/b");
    expect(asked(panel)).toBe(0);
    await userEvent.clear(messageBox());
    await userEvent.type(messageBox(), "/zzz");
    panel.send({ type: "slashCommands", commands: COMMANDS });
    expect(menu()).toBeNull();
    await userEvent.type(messageBox(), " now{Enter}");
    expect(sent(panel)).toEqual([{ type: "newTask", text: "/zzz now", images: [] }]);
  });
});
