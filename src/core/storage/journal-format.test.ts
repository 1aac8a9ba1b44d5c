import { describe, expect, it } from "vitest";
import { completeLines, encodeOp, encodeReset, parseOps, replay, type JournalOp } from "./journal-format";

interface Row {
  ts: number;
  text: string;
}
const row = (ts: number, text = `row ${ts}`): Row => ({ ts, text });
const keyOf = (item: Row) => item.ts;
const lines = (...ops: unknown[]) => ops.map((op) => `${JSON.stringify(op)}\n`).join("");

describe("the journal's lines", () => {
  it("encodes a change as one JSON line, and a reset as JSON.stringify would, with each item's bytes", () => {
    expect(encodeOp({ push: row(1) })).toBe('{"push":{"ts":1,"text":"row 1"}}\n');
    const items = [row(1), row(2, "zwölf")];
    const { line, itemBytes } = encodeReset(items);
    expect(line).toBe(`${JSON.stringify({ reset: items })}\n`);
    expect(itemBytes).toEqual(items.map((item) => Buffer.byteLength(JSON.stringify(item)) + 1));
    expect(encodeReset([])).toEqual({ line: '{"reset":[]}\n', itemBytes: [] });
  });

  it("counts only lines whose newline is written: a line a crash cut short is not there yet", () => {
    expect(completeLines("")).toEqual([]);
    expect(completeLines('{"push":')).toEqual([]);
    expect(completeLines('{"a":1}\n{"b":')).toEqual(['{"a":1}']);
    expect(completeLines('{"a":1}\n{"b":2}\n')).toEqual(['{"a":1}', '{"b":2}']);
    expect(parseOps(`${lines({ push: row(1) })}{"push":{"ts":2`, "f")).toEqual([{ push: row(1) }]);
  });

  it("reads every kind of change", () => {
    const ops = [{ reset: [row(1)] }, { push: row(2) }, { set: row(2, "new") }, { drop: [1] }, { drop: [] }, { replace: { index: 0, item: row(3) } }];
    expect(parseOps(lines(...ops), "f")).toEqual(ops);
  });

  it("reports an empty line as damage, even the first", () => {
    expect(() => parseOps("\n", "f")).toThrow(/^Task history file f is damaged at line 1: /);
  });

  it("reports a line that is not JSON as damage, with the file and line number", () => {
    expect(() => parseOps(`${lines({ push: row(1) })}{oops\n`, "/t/ui.jsonl")).toThrow(/^Task history file \/t\/ui\.jsonl is damaged at line 2: /);
  });

  it.each([
    ["null", null],
    ["a number", 42],
    ["a string", "push"],
    ["an array", [{ push: {} }]],
    ["an empty object", {}],
    ["two changes in one line", { push: row(1), set: row(1) }],
    ["an unknown change", { insert: row(1) }],
    ["a reset of no list", { reset: { 0: row(1) } }],
    ["a drop of no list", { drop: 1 }],
    ["a drop of a key that is not a number", { drop: [1, "2"] }],
    ["a push of nothing", { push: null }],
    ["a push of a plain value", { push: 3 }],
    ["a set of nothing", { set: null }],
    ["a set of a plain value", { set: "row" }],
    ["a replace of nothing", { replace: null }],
    ["a replace that is a number", { replace: 0 }],
    ["a replace without an index", { replace: { item: row(1) } }],
    ["a replace at a negative index", { replace: { index: -1, item: row(1) } }],
    ["a replace at a fractional index", { replace: { index: 0.5, item: row(1) } }],
    ["a replace at an index given as text", { replace: { index: "0", item: row(1) } }],
    ["a replace without an item", { replace: { index: 0 } }],
    ["a replace with a null item", { replace: { index: 0, item: null } }],
    ["a replace with a plain value", { replace: { index: 0, item: 7 } }],
  ])("refuses %s, naming the line, rather than guess what it meant", (_name, op) => {
    expect(() => parseOps(lines({ push: row(1) }, op), "ui.jsonl")).toThrow("Task history file ui.jsonl has an entry Tandem does not know at line 2 (written by a newer version?)");
  });
});

describe("replay", () => {
  it("rebuilds the list: reset, push, set by key, drop by keys, replace by position", () => {
    const ops: JournalOp<Row>[] = [{ push: row(3) }, { set: row(2, "changed") }, { drop: [1] }, { replace: { index: 1, item: row(9) } }];
    expect(replay([row(1), row(2)], ops, keyOf)).toEqual([row(2, "changed"), row(9)]);
    expect(replay([row(1)], [{ reset: [row(5), row(6)] }, { set: row(6, "six") }], keyOf)).toEqual([row(5), row(6, "six")]);
  });

  it("leaves the base list as it was", () => {
    const base = [row(1)];
    replay(base, [{ push: row(2) }, { set: row(1, "x") }], keyOf);
    expect(base).toEqual([row(1)]);
  });

  it("keeps, at the end, an item a set names that nobody added, and finds it again for the next set", () => {
    expect(replay([row(1)], [{ set: row(7, "seven") }], keyOf)).toEqual([row(1), row(7, "seven")]);
    expect(replay([row(1)], [{ set: row(7) }, { set: row(7, "again") }, { set: row(1, "one") }], keyOf)).toEqual([row(1, "one"), row(7, "again")]);
  });

  it("finds items by key after every kind of change", () => {
    // After a push, a drop, a reset and a replace, a set still lands on the right item.
    const ops: JournalOp<Row>[] = [
      { push: row(2) },
      { set: row(2, "after push") },
      { drop: [1] },
      { set: row(2, "after drop") },
      { push: row(3) },
      { replace: { index: 0, item: row(4) } },
      { set: row(4, "after replace") },
      { set: row(3, "three") },
    ];
    expect(replay([row(1)], ops, keyOf)).toEqual([row(4, "after replace"), row(3, "three")]);
    expect(replay([row(1), row(2)], [{ reset: [row(2), row(1)] }, { set: row(1, "one") }], keyOf)).toEqual([row(2), row(1, "one")]);
  });

  it("drops every key listed, and only those", () => {
    expect(replay([row(1), row(2), row(3), row(4)], [{ drop: [1, 3, 8] }], keyOf)).toEqual([row(2), row(4)]);
  });

  it("replaces by position in a plain list, refusing a position the list does not have", () => {
    expect(replay([row(1), row(2)], [{ replace: { index: 1, item: row(5) } }])).toEqual([row(1), row(5)]);
    expect(() => replay([row(1), row(2)], [{ replace: { index: 2, item: row(5) } }])).toThrow("The history replaces item 2, but it holds only 2 items.");
    expect(replay([row(1)], [{ push: row(2) }, { reset: [] }, { push: row(3) }])).toEqual([row(3)]);
  });

  it("refuses a set or drop in a plain list, whose items have no key", () => {
    expect(() => replay([row(1)], [{ set: row(1) }])).toThrow("This history is a plain list: it cannot replace or remove items by key.");
    expect(() => replay([row(1)], [{ drop: [1] }])).toThrow(/plain list/);
  });
});
