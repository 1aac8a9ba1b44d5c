import { describe, expect, it } from "vitest";
import { DEFAULT_TOOL_GRAMMAR, parseAssistantMessageV2 } from "./parse-assistant-message";
import { dropFramingNewlines, grammarOf, isWs } from "./tool-tags";
import type { AssistantMessageContent } from "./types";

const text = (content: string, partial = false): AssistantMessageContent => ({ type: "text", content, partial });
const tool = (name: string, params: Record<string, string>, partial = false): AssistantMessageContent => ({
  type: "tool_use",
  name,
  params,
  partial,
});
const parse = (s: string) => parseAssistantMessageV2(s);

describe("parseAssistantMessageV2: text and tools", () => {
  it("returns one trimmed, partial text block for plain prose and nothing for blank text", () => {
    expect(parse("  Hello there.\n")).toEqual([text("Hello there.", true)]);
    expect(parse("")).toEqual([]);
    expect(parse(" \n\t ")).toEqual([]);
  });

  it("cuts prose around a tool call; only the text the message ends in is partial", () => {
    expect(parse("Let me look.\n<read_file>\n<path>src/a.ts</path>\n</read_file>\nDone.")).toEqual([
      text("Let me look."),
      tool("read_file", { path: "src/a.ts" }),
      text("Done.", true),
    ]);
  });

  it("leaves out empty text between tools and keeps each tool of a multi-tool answer apart", () => {
    const s = "<read_file><path>a</path></read_file>\n\n<list_files><path>.</path><recursive>true</recursive></list_files>";
    expect(parse(s)).toEqual([tool("read_file", { path: "a" }), tool("list_files", { path: ".", recursive: "true" })]);
  });

  it("treats unknown tags, and parameter tags outside a tool, as text", () => {
    expect(parse("Use <foo>bar</foo> or <path>x</path>; a < b > c")).toEqual([
      text("Use <foo>bar</foo> or <path>x</path>; a < b > c", true),
    ]);
    expect(parse("<read_file >x</read_file>")).toEqual([text("<read_file >x</read_file>", true)]);
  });

  it("ignores tags inside a tool that are not that tool's parameters, including another tool's tags", () => {
    const s = "<read_file>junk <content>x</content> <list_files><path>a.ts</path> more</read_file>";
    expect(parse(s)).toEqual([tool("read_file", { path: "a.ts" })]);
  });

  it("trims ordinary parameter values and keeps < and > inside them", () => {
    const s = "<execute_command><command>\n  ls -la | grep '<x>' > out.txt  \n</command><requires_approval> false </requires_approval></execute_command>";
    expect(parse(s)).toEqual([tool("execute_command", { command: "ls -la | grep '<x>' > out.txt", requires_approval: "false" })]);
  });

  it("lets a repeated parameter overwrite the earlier value", () => {
    expect(parse("<read_file><path>a</path><path>b</path></read_file>")).toEqual([tool("read_file", { path: "b" })]);
  });

  it("parses a tool with no parameters", () => {
    expect(parse("<load_mcp_documentation></load_mcp_documentation>")).toEqual([tool("load_mcp_documentation", {})]);
  });

  it("keeps unicode, surrogate pairs and CRLF text intact", () => {
    const s = "Voilà 😀 漢字\r\n<write_to_file><path>é/🚀.txt</path><content>\r\nα😀β\r\n</content></write_to_file>";
    expect(parse(s)).toEqual([text("Voilà 😀 漢字"), tool("write_to_file", { path: "é/🚀.txt", content: "α😀β" })]);
  });
});

describe("parseAssistantMessageV2: streaming prefixes", () => {
  it("reports a half-typed tag literally (stripping it is presentation's job)", () => {
    expect(parse("Let me check <rea")).toEqual([text("Let me check <rea", true)]);
    expect(parse("<read_file><path>src/a.ts</pa")).toEqual([tool("read_file", { path: "src/a.ts</pa" }, true)]);
  });

  it("gives an open parameter the rest of the text and marks its tool partial", () => {
    expect(parse("Hi <read_file><path> src/a")).toEqual([text("Hi"), tool("read_file", { path: "src/a" }, true)]);
    expect(parse("<read_file><path>a</path>")).toEqual([tool("read_file", { path: "a" }, true)]);
    expect(parse("<read_file>")).toEqual([tool("read_file", {}, true)]);
    expect(parse("<write_to_file><path>a</path><content>")).toEqual([tool("write_to_file", { path: "a", content: "" }, true)]);
  });

  it("ends a streaming raw value before a closing tag whose follower has not arrived", () => {
    const head = "<write_to_file><path>a</path><content>\nline\n</content>";
    expect(parse(head)).toEqual([tool("write_to_file", { path: "a", content: "line" }, true)]);
    expect(parse(head + "\n </write_to_f")).toEqual([tool("write_to_file", { path: "a", content: "line" }, true)]);
    expect(parse(head + "\n</write_to_file>")).toEqual([tool("write_to_file", { path: "a", content: "line" })]);
    // Once something else follows, that closing tag was file content after all.
    expect(parse(head + "\nmore")).toEqual([tool("write_to_file", { path: "a", content: "line\n</content>\nmore" }, true)]);
  });
});

describe("parseAssistantMessageV2: raw values (write_to_file content, replace_in_file diff)", () => {
  it("keeps inner whitespace and drops exactly one framing newline at each end", () => {
    const s = "<write_to_file><path>a.py</path><content>\n\n  def f():\n\treturn 1\n\n</content></write_to_file>";
    expect(parse(s)).toEqual([tool("write_to_file", { path: "a.py", content: "\n  def f():\n\treturn 1\n" })]);
    const crlf = "<write_to_file><path>a</path><content>\r\nx\r\n\r\n</content></write_to_file>";
    expect(parse(crlf)).toEqual([tool("write_to_file", { path: "a", content: "x\r\n" })]);
    const bare = "<write_to_file><path>a</path><content>  x  </content></write_to_file>";
    expect(parse(bare)).toEqual([tool("write_to_file", { path: "a", content: "  x  " })]);
  });

  it("keeps a </content> that is not followed by the tool's end or a parameter (an XML file)", () => {
    const xml = '<item>\n  <content>hi</content>\n</item>\n<content lang="en">x</content>';
    const s = `<write_to_file><path>a.xml</path><content>\n${xml}\n</content>\n</write_to_file>`;
    expect(parse(s)).toEqual([tool("write_to_file", { path: "a.xml", content: xml })]);
  });

  it("keeps a </diff> inside a diff", () => {
    const diff = "<<<<<<< SEARCH\n<x></diff></x>\n=======\n<y></diff>\n>>>>>>> REPLACE";
    const s = `<replace_in_file><path>a.html</path><diff>\n${diff}\n</diff></replace_in_file>`;
    expect(parse(s)).toEqual([tool("replace_in_file", { path: "a.html", diff })]);
  });

  it("accepts the raw parameter before the others", () => {
    const s = "<write_to_file><content>\nbody\n</content>\n<path>a.txt</path>\n</write_to_file>";
    expect(parse(s)).toEqual([tool("write_to_file", { content: "body", path: "a.txt" })]);
  });

  it("ends the value at the LAST confirmed </content> before </write_to_file>", () => {
    // The first </content> is followed by a parameter tag, but a later one closes the tool: both were content.
    const s = "<write_to_file><path>a</path><content>A</content><path>B</content>\n</write_to_file>rest";
    expect(parse(s)).toEqual([tool("write_to_file", { path: "a", content: "A</content><path>B" }), text("rest", true)]);
    const twice = "<write_to_file><content>A</content><content>B</content><path>x</path></write_to_file>";
    expect(parse(twice)).toEqual([tool("write_to_file", { content: "A</content><content>B", path: "x" })]);
  });

  it("cuts a file that literally contains </content></write_to_file>, reading the rest as prose (documented)", () => {
    const s = "<write_to_file><path>t.md</path><content>X</content></write_to_file>Y</content></write_to_file>";
    expect(parse(s)).toEqual([tool("write_to_file", { path: "t.md", content: "X" }), text("Y</content></write_to_file>", true)]);
  });

  it("lets content contain </write_to_file> and a whole tool call when it is not preceded by </content>", () => {
    const inner = "Call it so:\n<read_file><path>x</path></read_file>\nthen </write_to_file> ends it.";
    const s = `<write_to_file><path>doc.md</path><content>\n${inner}\n</content>\n</write_to_file>`;
    expect(parse(s)).toEqual([tool("write_to_file", { path: "doc.md", content: inner })]);
  });

  it("never lets one write_to_file swallow the next one", () => {
    const one = "<write_to_file><path>a</path><content>\nA\n</content>\n</write_to_file>";
    const two = "<write_to_file><path>b</path><content>\nB\n</content>\n</write_to_file>";
    expect(parse(`${one}\nand then\n${two}`)).toEqual([
      tool("write_to_file", { path: "a", content: "A" }),
      text("and then"),
      tool("write_to_file", { path: "b", content: "B" }),
    ]);
  });

  it("treats content and diff as ordinary (trimmed) parameters in other tools", () => {
    const g = grammarOf({ note: ["content"] });
    expect(parseAssistantMessageV2("<note><content>\n a \n</content></note>", g)).toEqual([tool("note", { content: "a" })]);
  });
});

describe("parseAssistantMessageV2: grammar and input checks", () => {
  it("recognises only the tools and parameters of the grammar it is given", () => {
    const g = grammarOf({ read_file: ["path"] });
    expect(parseAssistantMessageV2("<list_files><path>a</path></list_files>", g)).toEqual([
      text("<list_files><path>a</path></list_files>", true),
    ]);
    expect(parseAssistantMessageV2("<read_file><path>a</path><start_line>3</start_line></read_file>", g)).toEqual([
      tool("read_file", { path: "a" }),
    ]);
  });

  it("lists Cline's tools in the default grammar", () => {
    expect([...DEFAULT_TOOL_GRAMMAR.keys()]).toHaveLength(16);
    expect([...(DEFAULT_TOOL_GRAMMAR.get("browser_action") ?? [])]).toEqual(["action", "url", "coordinate", "text"]);
    expect(DEFAULT_TOOL_GRAMMAR.get("load_mcp_documentation")?.size).toBe(0);
  });

  it("rejects bad input and bad grammars with a clear error", () => {
    expect(() => parseAssistantMessageV2(undefined as unknown as string)).toThrow(/expected a string/);
    expect(() => parseAssistantMessageV2("x", grammarOf({ "read file": ["path"] }))).toThrow(/tool name "read file"/);
    expect(() => parseAssistantMessageV2("x", grammarOf({ t: ["a>b"] }))).toThrow(/parameter of t name "a>b"/);
  });
});

describe("shared character rules", () => {
  it("isWs matches exactly what String.prototype.trim removes", () => {
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      if (isWs(c) !== (ch.trim() === "")) throw new Error(`isWs disagrees with trim at U+${c.toString(16)}`);
    }
  });

  it("drops one framing newline at each end, LF or CRLF", () => {
    const cases: [string, string][] = [
      ["\nx\n", "x"],
      ["\r\nx\r\n", "x"],
      ["\n\nx\n\n", "\nx\n"],
      ["\n", ""],
      ["\r\n", ""],
      ["\n\r\n", ""],
      ["\r", "\r"],
      ["x\r", "x\r"],
      ["\rx", "\rx"],
      ["x", "x"],
      ["", ""],
    ];
    for (const [input, want] of cases) expect(dropFramingNewlines(input), JSON.stringify(input)).toBe(want);
  });
});
