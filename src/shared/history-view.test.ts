import { describe, expect, it } from "vitest";
import { compareHistory, inScope, orderMatches, tasksToDelete } from "./history-view";
import type { HistoryItem, HistoryMatch } from "./protocol";
import { ZERO_USAGE } from "./usage";

const item = (id: string, startedAt: number, extra: Partial<HistoryItem> = {}): HistoryItem => ({ id, text: id, startedAt, usage: ZERO_USAGE, ...extra });

describe("History's scope", () => {
  it("shows this workspace's tasks, or all; a task that did not record its workspace only under all", () => {
    const here = item("here", 1, { workspace: "/w/app" });
    const there = item("there", 2, { workspace: "/w/other" });
    const unknown = item("unknown", 3);
    expect([here, there, unknown].filter((i) => inScope(i, "workspace", "/w/app")).map((i) => i.id)).toEqual(["here"]);
    expect([here, there, unknown].filter((i) => inScope(i, "all", "/w/app")).map((i) => i.id)).toEqual(["here", "there", "unknown"]);
    // No workspace open: nothing is "this workspace's".
    expect(inScope(unknown, "workspace", "")).toBe(false);
  });
});

describe("History's sorts", () => {
  const cheapBig = item("cheap-big", 1, { usage: { ...ZERO_USAGE, cost: 0.01, tokensIn: 90_000, cacheReads: 10_000 } });
  const dearSmall = item("dear-small", 2, { usage: { ...ZERO_USAGE, cost: 2, tokensIn: 1_000, tokensOut: 500 } });
  const free = item("free", 3);
  const order = (sort: Parameters<typeof compareHistory>[0]) => [cheapBig, dearSmall, free].sort(compareHistory(sort)).map((i) => i.id);

  it("orders by start, cost or every token processed; ties newest first", () => {
    expect(order("newest")).toEqual(["free", "dear-small", "cheap-big"]);
    expect(order("oldest")).toEqual(["cheap-big", "dear-small", "free"]);
    expect(order("cost")).toEqual(["dear-small", "cheap-big", "free"]);
    expect(order("tokens")).toEqual(["cheap-big", "dear-small", "free"]);
    expect([item("a", 1), item("b", 2)].sort(compareHistory("cost")).map((i) => i.id)).toEqual(["b", "a"]);
  });

  it("orders search matches by rank first, then by the sort among equals, leaving out tasks gone meanwhile", () => {
    const byId = new Map([cheapBig, dearSmall, free].map((i) => [i.id, i]));
    const match = (id: string, rank: number): HistoryMatch => ({ id, rank, field: "text", ranges: [] });
    const ordered = orderMatches([match("free", 3), match("cheap-big", 3), match("dear-small", 1), match("deleted", 0)], byId, "cost");
    expect(ordered.map((o) => o.item.id)).toEqual(["dear-small", "cheap-big", "free"]);
  });
});

describe("Delete all", () => {
  it("takes the scope's tasks but the favourites and the open one", () => {
    const items = [
      item("plain", 1, { workspace: "/w/app" }),
      item("starred", 2, { workspace: "/w/app", favorite: true }),
      item("open", 3, { workspace: "/w/app" }),
      item("elsewhere", 4, { workspace: "/w/other" }),
      item("unrecorded", 5),
    ];
    expect(tasksToDelete(items, "workspace", "/w/app", "open")).toEqual(["plain"]);
    expect(tasksToDelete(items, "all", "/w/app", "open")).toEqual(["plain", "elsewhere", "unrecorded"]);
    expect(tasksToDelete(items, "all", "/w/app", undefined)).toEqual(["plain", "open", "elsewhere", "unrecorded"]);
  });
});
