import { describe, expect, it } from "vitest";
import { FOCUS_CHAIN_MAX_ITEMS, parseChecklist, readEditedItems } from "./focus-chain-parse";

const open = (text: string) => ({ text, done: false });
const done = (text: string) => ({ text, done: true });

describe("parseChecklist", () => {
  it("reads the forms models write: bullets, numbers, bare boxes, in-progress marks, fences, wrapped items", () => {
    const text = ["```markdown", "- [ ] one", "* [x] two", "+ [X] three", "1. [ ] four", "2) [-] five", "[✓] six", "- seven", "", "- [ ] eight which", "  goes on here", "```"].join("\n");
    expect(parseChecklist(text)).toEqual({ items: [open("one"), done("two"), done("three"), open("four"), open("five"), done("six"), open("seven"), open("eight which goes on here")] });
  });

  it("refuses the whole list when a line is not an item, naming it", () => {
    expect(parseChecklist("## Plan\n- [ ] one")).toEqual({ error: expect.stringContaining('this line is not a checklist item: "## Plan"') });
    expect(parseChecklist("a\nb\nc\nd")).toEqual({ error: expect.stringMatching(/^4 lines are not a checklist item: "a", "b", "c", …/) });
  });

  it("refuses an empty item, too many items and an item too long", () => {
    expect(parseChecklist("- [ ] one\n- [ ]")).toEqual({ error: "item 2 has no text." });
    expect(parseChecklist(Array.from({ length: FOCUS_CHAIN_MAX_ITEMS + 1 }, (_, i) => `- [ ] ${i}`).join("\n"))).toEqual({ error: expect.stringContaining("at most 50") });
    expect(parseChecklist(`- [ ] ${"x".repeat(400)}`)).toEqual({ error: expect.stringContaining("item 1 is 400 characters long") });
  });

  it("takes an empty text as an empty list (the checklist cleared)", () => {
    expect(parseChecklist("\n")).toEqual({ items: [] });
  });
});

describe("readEditedItems", () => {
  it("checks the panel's data and keeps each item on one line", () => {
    expect(readEditedItems([{ text: "a\nb", done: true }])).toEqual({ items: [done("a b")] });
    expect(readEditedItems([{ text: 1, done: true }])).toEqual({ error: "item 1 must have a text and a done flag." });
    expect(readEditedItems({})).toEqual({ error: "the checklist must be a list of items." });
  });
});
