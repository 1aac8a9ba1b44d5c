import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { VirtuosoMockContext } from "react-virtuoso";
import { describe, expect, it } from "vitest";
import type { HistoryItem, HistoryMatch } from "../../../src/shared/protocol";
import { ZERO_USAGE } from "../../../src/shared/usage";
import { App } from "../App";
import { ExtensionStore } from "../state/extension-store";
import { makeState, TASK } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";
import { createMemoryApi } from "../vscode-api";

const ROOT = "/work/project";
const item = (id: string, startedAt: number, extra: Partial<HistoryItem> = {}): HistoryItem => ({ id, text: `Task ${id}`, startedAt, usage: ZERO_USAGE, workspace: ROOT, ...extra });
const history = [
  item("old", 1_000, { text: "Rename the config loader", usage: { ...ZERO_USAGE, cost: 0.5, tokensIn: 1000, tokensOut: 100 } }),
  item("new", 2_000, { text: "Add a retry to the fetcher", usage: { ...ZERO_USAGE, cost: 0.25, tokensIn: 2000, tokensOut: 200 } }),
];

function openHistory(state = makeState({ history, workspace: ROOT })) {
  const panel = renderPanel(state);
  panel.send({ type: "showView", view: "history" });
  return panel;
}

const texts = () => screen.queryAllByRole("listitem").map((entry) => entry.querySelector(".history-text")?.textContent);
const status = () => screen.getByRole("status").textContent;

function choose(label: string, value: string) {
  const select = screen.getByLabelText(label) as HTMLSelectElement;
  select.value = value;
  fireEvent(select, new Event("change"));
}

function type(value: string) {
  fireEvent.input(screen.getByLabelText("Search tasks and conversations"), { target: { value } });
}

describe("history view", () => {
  it("lists this workspace's saved tasks newest first and resumes one", async () => {
    const panel = openHistory();
    expect(texts()).toEqual(["Add a retry to the fetcher", "Rename the config loader"]);
    expect(status()).toBe("2 tasks of this workspace.");
    await userEvent.click(await within(screen.getAllByRole("listitem")[1]!).findByRole("button", { name: "Resume" }));
    expect(panel.posted()).toEqual([{ type: "resumeTask", id: "old" }]);
    expect(screen.queryByRole("heading", { name: "History" })).toBeNull();
  });

  it("switches to every workspace's tasks, those that did not record theirs among them, and remembers the choice", async () => {
    const all = [...history, item("there", 3_000, { text: "Elsewhere", workspace: "/other" }), item("legacy", 500, { text: "Unrecorded", workspace: undefined })];
    const panel = openHistory(makeState({ history: all, workspace: ROOT }));
    expect(texts()).toEqual(["Add a retry to the fetcher", "Rename the config loader"]);
    expect(status()).toBe("2 tasks of this workspace. 2 tasks in other workspaces (All workspaces shows them).");
    const box = document.querySelector('vscode-checkbox[data-setting="all-workspaces"]') as HTMLInputElement;
    expect(box.textContent?.trim()).toBe("All workspaces");
    box.checked = true;
    fireEvent(box, new Event("change"));
    expect(texts()).toEqual(["Elsewhere", "Add a retry to the fetcher", "Rename the config loader", "Unrecorded"]);
    expect(status()).toBe("4 tasks in all workspaces.");
    expect(panel.api.getState()).toMatchObject({ historyScope: "all" });
  });

  it("sorts by newest, oldest, most expensive and most tokens", async () => {
    openHistory(makeState({ history: [...history, item("big", 1_500, { text: "Big", usage: { ...ZERO_USAGE, cost: 0.01, cacheReads: 50_000 } })], workspace: ROOT }));
    await waitFor(() => expect((screen.getByLabelText("Sort by") as HTMLSelectElement).value).toBe("newest"));
    expect(texts()).toEqual(["Add a retry to the fetcher", "Big", "Rename the config loader"]);
    choose("Sort by", "oldest");
    expect(texts()).toEqual(["Rename the config loader", "Big", "Add a retry to the fetcher"]);
    choose("Sort by", "cost");
    expect(texts()).toEqual(["Rename the config loader", "Add a retry to the fetcher", "Big"]);
    choose("Sort by", "tokens");
    expect(texts()).toEqual(["Big", "Add a retry to the fetcher", "Rename the config loader"]);
  });

  it("asks the host to search, and shows its matches ranked, the matched part marked, a conversation's words beside the task", () => {
    const panel = openHistory();
    type("fetch");
    expect(panel.posted()).toEqual([{ type: "searchHistory", query: "fetch", requestId: expect.any(Number), scope: "workspace" }]);
    const first = panel.posted()[0] as { requestId: number };
    // Until the host answers, the list shown stays.
    expect(status()).toBe("Searching…");
    const matches: HistoryMatch[] = [
      { id: "old", rank: 4, field: "conversation", ranges: [[9, 14]], snippet: { text: "…it will fetch the file", by: "model" } },
      { id: "new", rank: 2, field: "text", ranges: [[19, 24]] },
    ];
    panel.send({ type: "historyResults", requestId: first.requestId, query: "fetch", matches, total: 2 });
    expect(texts()).toEqual(["Add a retry to the fetcher", "Rename the config loader"]);
    expect(status()).toBe("2 tasks match “fetch”.");
    const [best, second] = screen.getAllByRole("listitem");
    expect([...best!.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["fetch"]);
    expect(second!.querySelector(".history-snippet")?.textContent).toBe("Tandem: …it will fetch the file");
    expect([...second!.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["fetch"]);

    // A newer query: the old answer stays until its own arrives; an answer to an older query is ignored.
    type("fetchx");
    panel.send({ type: "historyResults", requestId: first.requestId, query: "fetch", matches: [], total: 0 });
    expect(texts()).toHaveLength(2);
    const second2 = panel.posted().at(-1) as { requestId: number };
    panel.send({ type: "historyResults", requestId: second2.requestId, query: "fetchx", matches: [], total: 0 });
    expect(texts()).toEqual([]);
    expect(status()).toBe("No task matches “fetchx”.");
    // The best few hundred of many: the count says so.
    type("f");
    const third = panel.posted().at(-1) as { requestId: number };
    panel.send({ type: "historyResults", requestId: third.requestId, query: "f", matches, total: 1_234 });
    expect(status()).toBe("The best 2 of 1,234 tasks that match “f”: type more to narrow.");
    type("");
    expect(texts()).toHaveLength(2);
  });

  it("stars a task, and Delete all asks first, counting what it deletes: not the favourites, not the open task", async () => {
    const items = [item("a", 1), item("b", 2, { favorite: true }), item(TASK.id, 3), item("c", 4), item("other", 5, { workspace: "/other" })];
    const panel = openHistory(makeState({ history: items, workspace: ROOT, task: TASK }));
    const star = (id: string) => within(screen.getAllByRole("listitem").find((li) => li.textContent?.includes(`Task ${id}`))!).getByRole("button", { name: "Favourite" });
    expect(star("b")).toHaveAttribute("aria-pressed", "true");
    expect(star("a")).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(star("a"));
    expect(panel.posted()).toEqual([{ type: "setFavorite", id: "a", favorite: true }]);

    await userEvent.click(await screen.findByRole("button", { name: "Delete all" }));
    const confirm = screen.getByRole("group", { name: "Delete all?" });
    // The keyboard lands on the safe choice.
    await waitFor(() => expect(within(confirm).getByRole("button", { name: "Cancel" })).toHaveFocus());
    expect(confirm.textContent).toContain("Delete 2 tasks of this workspace? Favourites and the open task are kept.");
    fireEvent.keyDown(await within(confirm).findByRole("button", { name: "Cancel" }), { key: "Escape" });
    expect(screen.queryByRole("group", { name: "Delete all?" })).toBeNull();
    expect(panel.posted()).toHaveLength(1);
    await userEvent.click(await screen.findByRole("button", { name: "Delete all" }));
    await userEvent.click(await within(screen.getByRole("group", { name: "Delete all?" })).findByRole("button", { name: "Delete 2 tasks" }));
    expect(panel.posted().at(-1)).toEqual({ type: "deleteTasks", scope: "workspace" });
  });

  it("exports a task, and deletes one only after a second click", async () => {
    const panel = openHistory();
    const entry = screen.getAllByRole("listitem")[0]!;
    await userEvent.click(await within(entry).findByRole("button", { name: "Export" }));
    expect(panel.posted()).toEqual([{ type: "exportTask", id: "new" }]);
    await userEvent.click(await within(entry).findByRole("button", { name: "Delete" }));
    expect(panel.posted()).toHaveLength(1);
    await userEvent.click(await within(entry).findByRole("button", { name: "Confirm delete" }));
    expect(panel.posted().at(-1)).toEqual({ type: "deleteTask", id: "new" });
    panel.send({ type: "historyItemsRemoved", ids: ["new"] });
    expect(texts()).toEqual(["Rename the config loader"]);
  });

  it("names every control, inside the elements' shadow roots too, where a screen reader meets it", async () => {
    openHistory();
    for (const host of document.querySelectorAll<HTMLElement>(".history-view vscode-single-select, .history-view vscode-textfield")) {
      const name = host.getAttribute("aria-label");
      await waitFor(() => expect(host.shadowRoot?.querySelector('[role="combobox"], input')).toHaveAttribute("aria-label", name));
    }
    for (const name of ["Done", "Delete all", "Favourite", "Resume", "Export", "Delete"]) expect((await screen.findAllByRole("button", { name })).length).toBeGreaterThan(0);
    expect(screen.getByRole("list", { name: "Saved tasks" })).toBeInTheDocument();
  });

  it("says so when there is no history", () => {
    openHistory(makeState());
    expect(screen.getByText("No saved tasks yet.")).toBeInTheDocument();
    expect(screen.queryByRole("list")).toBeNull();
  });

  it("renders only the rows near the view of 5,000 tasks, each saying its place in the whole", () => {
    const many = Array.from({ length: 5_000 }, (_, i) => item(`t${i}`, i));
    const store = new ExtensionStore();
    render(
      <VirtuosoMockContext.Provider value={{ viewportHeight: 600, itemHeight: 120 }}>
        <App api={createMemoryApi()} store={store} />
      </VirtuosoMockContext.Provider>,
    );
    act(() => {
      store.apply({ type: "state", state: makeState({ history: many, workspace: ROOT }) });
      store.apply({ type: "showView", view: "history" });
    });
    const list = screen.getByRole("list", { name: "Saved tasks" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(30);
    expect(rows[0]).toHaveAttribute("aria-setsize", "5000");
    expect(rows[0]).toHaveAttribute("aria-posinset", "1");
    expect(rows[0]?.querySelector(".history-text")?.textContent).toBe("Task t4999");
  });
});
