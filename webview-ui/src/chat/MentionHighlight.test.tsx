/**
 * Mentions marked in the message box: the layer behind the textarea holds the same text with each
 * mention the core will read in a <mark>, stays out of the accessibility tree, follows the
 * textarea's scrolling, and leaves typing, the menus' keys and sending as they were.
 */
import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeState } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const messageBox = () => screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
const layer = () => document.querySelector(".chat-input-highlight") as HTMLElement;
const marks = () => [...layer().querySelectorAll("mark")].map((m) => m.textContent);

describe("the message box's mention highlight", () => {
  it("marks each mention as typed, and nothing that is no mention; the text itself is untouched", async () => {
    renderPanel(makeState());
    await userEvent.type(messageBox(), "Read @/src/ and @problems, mail me@example.com about @word");
    expect(marks()).toEqual(["@/src/", "@problems"]);
    expect(layer().textContent).toBe(messageBox().value);
    expect(messageBox()).toHaveValue("Read @/src/ and @problems, mail me@example.com about @word");
  });

  it("is hidden from assistive technology: the textbox is all a screen reader meets", async () => {
    renderPanel(makeState());
    await userEvent.type(messageBox(), "see @/a.ts");
    expect(layer()).toHaveAttribute("aria-hidden", "true");
    expect(screen.getAllByRole("textbox")).toEqual([messageBox()]);
    expect(within(layer().parentElement!).queryByRole("mark")).toBeNull();
  });

  it("marks a mention picked from the @ menu, and the menu's keys still pick and Enter still sends", async () => {
    const panel = renderPanel(makeState());
    await userEvent.type(messageBox(), "look at @sr");
    const search = panel.posted().filter((m) => m.type === "searchWorkspace").at(-1)!;
    panel.send({ type: "workspaceResults", requestId: (search as { requestId: number }).requestId, query: "sr", results: [{ path: "src", isFolder: true }] });
    await userEvent.keyboard("{Enter}");
    expect(messageBox()).toHaveValue("look at @/src/ ");
    expect(marks()).toEqual(["@/src/"]);
    await userEvent.keyboard("{Enter}");
    expect(panel.posted().filter((m) => m.type === "newTask")).toEqual([{ type: "newTask", text: "look at @/src/", images: [] }]);
  });

  it("keeps a line after a trailing line break, as the textarea shows it", async () => {
    renderPanel(makeState());
    await userEvent.type(messageBox(), "@/a.ts{Shift>}{Enter}{/Shift}");
    expect(messageBox().value).toBe("@/a.ts\n");
    expect(layer().textContent).toBe("@/a.ts\n ");
  });

  it("follows the textarea's scrolling", async () => {
    renderPanel(makeState());
    await userEvent.type(messageBox(), "@/a.ts");
    messageBox().scrollTop = 37;
    fireEvent.scroll(messageBox());
    expect(layer().scrollTop).toBe(37);
  });
});
