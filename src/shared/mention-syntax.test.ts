import { describe, expect, it } from "vitest";
import { MAX_MENTIONS, mentionSpans, parseMentions } from "./mention-syntax";

describe("parseMentions", () => {
  it("reads each kind, in order", () => {
    const text = "@/src/a.ts and @/src/ then @problems, @terminal; @git-changes. @a1b2c3d @https://example.com/x?y=1";
    expect(parseMentions(text)).toEqual([
      { kind: "file", path: "src/a.ts", typed: "@/src/a.ts" },
      { kind: "folder", path: "src", typed: "@/src/" },
      { kind: "problems", typed: "@problems" },
      { kind: "terminal", typed: "@terminal" },
      { kind: "git-changes", typed: "@git-changes" },
      { kind: "commit", hash: "a1b2c3d", typed: "@a1b2c3d" },
      { kind: "url", url: "https://example.com/x?y=1", typed: "@https://example.com/x?y=1" },
    ]);
  });

  it("takes escaped spaces into the path and leaves sentence punctuation out", () => {
    expect(parseMentions("see @/My\\ Docs/a\\ b.txt.")).toEqual([{ kind: "file", path: "My Docs/a b.txt", typed: "@/My\\ Docs/a\\ b.txt" }]);
    expect(parseMentions("(see @/a.ts)")).toEqual([{ kind: "file", path: "a.ts", typed: "@/a.ts" }]);
    expect(parseMentions("@/f(1).txt, ok")[0]).toMatchObject({ path: "f(1).txt" });
    expect(parseMentions('"@/q.md"?')[0]).toMatchObject({ path: "q.md" });
    expect(parseMentions("@/")[0]).toMatchObject({ kind: "folder", path: "." });
  });

  it("ignores what is no mention: an e-mail address, a bare word, a short or long hex, a hex with letters past f", () => {
    expect(parseMentions("mail me@example.com or @someone, @abc123, @" + "a".repeat(41) + " @a1b2c3g")).toEqual([]);
  });

  it("names each mention once, and stops after the limit", () => {
    expect(parseMentions("@/a.ts @/a.ts @problems @problems")).toHaveLength(2);
    const many = Array.from({ length: MAX_MENTIONS + 5 }, (_, i) => `@/f${i}.ts`).join(" ");
    expect(parseMentions(many)).toHaveLength(MAX_MENTIONS);
  });
});

describe("mentionSpans", () => {
  const marked = (text: string) => mentionSpans(text).map(({ start, end }) => text.slice(start, end));

  it("places each mention as typed, repeats too, punctuation and e-mail addresses left out", () => {
    const text = "Read @/src/ and @/My\\ Docs/a.md, then (@problems); me@example.com; @/src/ again.";
    expect(marked(text)).toEqual(["@/src/", "@/My\\ Docs/a.md", "@problems", "@/src/"]);
    expect(mentionSpans(text).map((s) => s.mention.kind)).toEqual(["folder", "file", "problems", "folder"]);
  });

  it("marks nothing in a text without mentions, and nothing past the limit parseMentions keeps", () => {
    expect(mentionSpans("no mentions @ all, @word")).toEqual([]);
    const many = Array.from({ length: MAX_MENTIONS + 2 }, (_, i) => `@/f${i}.ts`).join(" ");
    expect(marked(`${many} @/f0.ts`)).toEqual([...parseMentions(many).map((m) => m.typed), "@/f0.ts"]);
  });
});
