import { describe, expect, it } from "vitest";
import { insertMention, mentionForPath, mentionQueryAt, menuItems } from "./mention-query";

describe("mention-query", () => {
  it("finds the @ the caret is in, escaped spaces included", () => {
    expect(mentionQueryAt("see @/My\\ Do", 12)).toEqual({ start: 4, query: "/My\\ Do" });
    expect(mentionQueryAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionQueryAt("see @src now", 12)).toBeUndefined();
    expect(mentionQueryAt("me@x", 4)).toBeUndefined();
    expect(mentionQueryAt("(@sr", 4)).toEqual({ start: 1, query: "sr" });
  });

  it("inserts the mention and one space, keeping what follows", () => {
    const item = { insert: mentionForPath("a b/c.ts", false), label: "", kind: "file" as const };
    expect(insertMention("x @a y", { start: 2, query: "a" }, item)).toEqual({ text: "x @/a\\ b/c.ts y", caret: 14 });
    expect(insertMention("x @a", { start: 2, query: "a" }, item)).toEqual({ text: "x @/a\\ b/c.ts ", caret: 14 });
    expect(mentionForPath("src", true)).toBe("@/src/");
  });

  it("filters the fixed items by the query", () => {
    expect(menuItems("git", []).map((i) => i.insert)).toEqual(["@git-changes"]);
    expect(menuItems("", []).map((i) => i.insert)).toEqual(["@problems", "@terminal", "@git-changes"]);
  });
});
