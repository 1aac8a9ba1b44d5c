/**
 * The @-menu in the whole panel: typing `@` asks the host for matches, the fixed mentions and the
 * host's answer are offered, the keys move and pick, Escape closes, and the picked mention lands
 * in the text as the core reads it. The host's part is played with `workspaceResults` messages.
 */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { FromWebviewMessage } from "../../../src/shared/protocol";
import { makeState } from "../test-support/fixtures";
import { renderPanel, type PanelHarness } from "../test-support/render-panel";

const messageBox = () => screen.getByRole("textbox", { name: "Message" });
const menu = () => screen.queryByRole("listbox", { name: "Mentions" });
const options = () => within(menu()!).getAllByRole("option").map((o) => o.textContent);
const selectedOption = () => within(menu()!).getAllByRole("option").find((o) => o.getAttribute("aria-selected") === "true")?.textContent;

type Search = Extract<FromWebviewMessage, { type: "searchWorkspace" }>;
const searches = (panel: PanelHarness) => panel.api.posted.filter((m): m is Search => m.type === "searchWorkspace");

/** Answers the latest search as the host would, with these entries. */
function answerLatest(panel: PanelHarness, results: { path: string; isFolder: boolean }[]): void {
  const latest = searches(panel).at(-1)!;
  panel.send({ type: "workspaceResults", requestId: latest.requestId, query: latest.query, results });
}

const SRC = [
  { path: "src", isFolder: true },
  { path: "src/app.ts", isFolder: false },
  { path: "My Docs/notes.md", isFolder: false },
];

describe("the @-menu", () => {
  it("opens on @ with the fixed mentions and the hints, and asks the host as the query grows", async () => {
    const panel = renderPanel(makeState());
    await userEvent.type(messageBox(), "look at @");
    expect(options()).toEqual([expect.stringContaining("Problems"), expect.stringContaining("Terminal"), expect.stringContaining("Git changes")]);
    expect(menu()!.parentElement).toHaveTextContent(/Paste a URL after @.*commit hash/);
    await userEvent.type(messageBox(), "sr");
    expect(searches(panel).map((s) => s.query)).toEqual(["", "s", "sr"]);
    expect(new Set(searches(panel).map((s) => s.requestId)).size).toBe(3);
  });

  it("shows the host's matches for @sr; arrow down and Enter insert the path with a space, and the menu closes", async () => {
    const panel = renderPanel(makeState());
    await userEvent.type(messageBox(), "look at @sr");
    answerLatest(panel, SRC);
    expect(options()).toEqual(["src/", "src/app.ts", "My Docs/notes.md"]);
    expect(selectedOption()).toBe("src/");
    await userEvent.keyboard("{ArrowDown}");
    expect(selectedOption()).toBe("src/app.ts");
    await userEvent.keyboard("{Enter}");
    expect(messageBox()).toHaveValue("look at @/src/app.ts ");
    expect(menu()).toBeNull();
    // Enter picked; it did not send.
    expect(panel.posted().filter((m) => m.type === "newTask")).toEqual([]);
    await userEvent.type(messageBox(), "please{Enter}");
    expect(panel.posted().filter((m) => m.type === "newTask")).toEqual([{ type: "newTask", text: "look at @/src/app.ts please", images: [] }]);
  });

  it("Tab picks a folder with its trailing slash; a space in a path is escaped; up wraps round", async () => {
    const panel = renderPanel(makeState());
    await userEvent.type(messageBox(), "@sr");
    answerLatest(panel, SRC);
    await userEvent.keyboard("{Tab}");
    expect(messageBox()).toHaveValue("@/src/ ");
    await userEvent.type(messageBox(), "and @no");
    answerLatest(panel, SRC.slice(2));
    await userEvent.keyboard("{ArrowUp}{Enter}");
    expect(messageBox()).toHaveValue("@/src/ and @/My\\ Docs/notes.md ");
  });

  it("Escape closes it until the next @; a stale answer is not shown", async () => {
    const panel = renderPanel(makeState());
    await userEvent.type(messageBox(), "@src");
    const first = searches(panel).at(-1)!;
    await userEvent.type(messageBox(), "/");
    panel.send({ type: "workspaceResults", requestId: first.requestId, query: first.query, results: [{ path: "stale.ts", isFolder: false }] });
    expect(menu()).toBeNull();
    answerLatest(panel, [{ path: "src/app.ts", isFolder: false }]);
    expect(options()).toEqual(["src/app.ts"]);
    await userEvent.keyboard("{Escape}");
    expect(menu()).toBeNull();
    await userEvent.type(messageBox(), "c");
    expect(menu()).toBeNull();
    await userEvent.type(messageBox(), " @");
    expect(menu()).not.toBeNull();
  });

  it("offers a typed commit hash and URL, and picks Problems by its name", async () => {
    renderPanel(makeState());
    await userEvent.type(messageBox(), "@a1b2c3d");
    expect(options()).toContain("Commit a1b2c3dits message and diff");
    await userEvent.clear(messageBox());
    await userEvent.type(messageBox(), "@https://example.com/x");
    expect(options()[0]).toContain("https://example.com/x");
    await userEvent.clear(messageBox());
    await userEvent.type(messageBox(), "fix @prob");
    expect(options()).toEqual([expect.stringContaining("Problems")]);
    await userEvent.keyboard("{Enter}");
    expect(messageBox()).toHaveValue("fix @problems ");
  });

  it("an e-mail address opens no menu", async () => {
    renderPanel(makeState());
    await userEvent.type(messageBox(), "mail me@exa");
    expect(menu()).toBeNull();
  });
});
