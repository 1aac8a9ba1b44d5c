import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApprovalDecision } from "./types";
import { fakeToolContext, runTool, tempDir, type FakeToolContext } from "../../../../test/support/tool-context";
import type { ApiMessage } from "../../../api/types";
import { ReadLedger } from "../../context/read-ledger";
import { readTextOf } from "../../files/read-text";
import { readFileTool } from "./read-file";
import { replaceInFileTool, WHOLE_FILE_LINES } from "./replace-in-file";

let ws: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir: ws, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const block = (search: string, replace: string) => `------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE`;
const GREET = 'export function greet(name) {\n  return "Hello " + name;\n}\n\nexport const answer = 42;\n';

async function edit(params: Record<string, string>, script: { approvals?: ApprovalDecision[]; ignored?: (p: string) => boolean } = {}) {
  const { ctx, log } = fakeToolContext(ws, script);
  return { result: await runTool(replaceInFileTool, params, ctx), log };
}

async function rejection(params: Record<string, string>, script: { ignored?: (p: string) => boolean } = {}) {
  const { ctx, log } = fakeToolContext(ws, script);
  const error = await runTool(replaceInFileTool, params, ctx).then(
    () => undefined,
    (e: unknown) => e as { reason?: string; message: string },
  );
  if (!error) throw new Error("expected the tool to throw");
  return { error, log };
}

const text = (result: Awaited<ReturnType<typeof edit>>["result"]) => (result.kind === "ok" && typeof result.content === "string" ? result.content : "");

describe("replace_in_file", () => {
  it("applies the diff after edit approval and shows the whole small file as it now is", async () => {
    await writeFile(path.join(ws, "greet.js"), GREET);
    const diff = block('  return "Hello " + name;', "  return `Hello, ${name}!`;");
    const { result, log } = await edit({ path: "greet.js", diff });
    const expected = GREET.replace('"Hello " + name', "`Hello, ${name}!`");
    expect(await readFile(path.join(ws, "greet.js"), "utf8")).toBe(expected);
    expect(log.approvals).toEqual([
      { category: "edit", message: { tool: "replace_in_file", path: "greet.js", content: diff, outsideWorkspace: false }, paths: [path.join(ws, "greet.js")] },
    ]);
    expect(text(result)).toContain("The edit to greet.js was applied (1 block).");
    expect(text(result)).toContain('<final_file_content path="greet.js">\n1|export function greet(name) {\n2|  return `Hello, ${name}!`;\n3|}\n4|\n5|export const answer = 42;\n</final_file_content>');
    expect(await readdir(ws)).toEqual(["greet.js"]);
  });

  it("shows only the changed regions, with context, of a long file", async () => {
    const lines = Array.from({ length: WHOLE_FILE_LINES + 100 }, (_, i) => `line ${i + 1}`);
    await writeFile(path.join(ws, "long.txt"), `${lines.join("\n")}\n`);
    const { result } = await edit({ path: "long.txt", diff: `${block("line 450", "LINE 450")}\n${block("line 10\nline 11", "ten")}` });
    const out = text(result);
    expect(out).toContain(`The file has ${lines.length - 1} lines; here are the edited regions`);
    expect(out).toContain('lines="7-13, 446-452"');
    expect(out).toContain("9|line 9\n10|ten\n11|line 12\n12|line 13\n13|line 14\n…\n446|line 447");
    expect(out).toContain("449|LINE 450\n");
    expect(out).not.toContain("line 100\n");
  });

  it("keeps CRLF line endings and a missing final newline", async () => {
    await writeFile(path.join(ws, "win.txt"), "one\r\ntwo\r\nthree");
    await edit({ path: "win.txt", diff: block("two", "2\n2.5") });
    expect(await readFile(path.join(ws, "win.txt"), "utf8")).toBe("one\r\n2\r\n2.5\r\nthree");
  });

  it("says when a block matched only loosely and REPLACE was indented like the file", async () => {
    await writeFile(path.join(ws, "greet.js"), GREET);
    const { result } = await edit({ path: "greet.js", diff: block('return "Hello " + name;', 'return "Hi " + name;') });
    expect(text(result)).toContain("Block 1 did not match exactly (whitespace or inner lines differed); REPLACE was shifted to the file's indentation in block 1.");
    expect(await readFile(path.join(ws, "greet.js"), "utf8")).toBe(GREET.replace('"Hello "', '"Hi "'));
  });

  it("refuses a diff that does not fit without asking, leaving the file byte for byte as it was", async () => {
    const original = Buffer.from("\uFEFFa\r\nb\r\nc");
    await writeFile(path.join(ws, "f.txt"), original);
    const { error, log } = await rejection({ path: "f.txt", diff: `${block("a", "A")}\n${block("x", "X")}` });
    expect(error.reason).toBe("invalid_param");
    expect(error.message).toContain('Block 2 (SEARCH starting "x") was not found in the file.');
    expect(error.message).toContain('Block 1 (SEARCH starting "a") matched line 1 exactly.');
    expect(error.message).toContain("f.txt was not changed.");
    expect(log.approvals).toEqual([]);
    expect((await readFile(path.join(ws, "f.txt"))).equals(original)).toBe(true);
  });

  it("refuses a diff that changes nothing", async () => {
    await writeFile(path.join(ws, "f.txt"), "same\n");
    const { error } = await rejection({ path: "f.txt", diff: block("same", "same") });
    expect(error).toMatchObject({ reason: "invalid_param", message: expect.stringContaining("changes nothing") });
  });

  it("sends a missing file to write_to_file", async () => {
    const { error, log } = await rejection({ path: "nope/new.ts", diff: block("", "x") });
    expect(error.reason).toBe("not_found");
    expect(error.message).toBe("File not found: nope/new.ts. replace_in_file only edits existing files; to create a new file, use write_to_file.");
    expect(log.approvals).toEqual([]);
  });

  it("refuses ignored paths before reading them", async () => {
    await writeFile(path.join(ws, ".env"), "SECRET=1\n");
    const { error, log } = await rejection({ path: ".env", diff: block("SECRET=2", "x") }, { ignored: (p) => p.endsWith(".env") });
    expect(error.reason).toBe("not_allowed");
    expect(error.message).toContain(".env looks like a secret file");
    expect(error.message).not.toContain("SECRET");
    expect(log.approvals).toEqual([]);
  });

  it.each([
    ["a folder", async () => mkdir(path.join(ws, "f.txt")), "is not a file"],
    ["a binary file", async () => writeFile(path.join(ws, "f.txt"), Buffer.from([0x61, 0x00, 0x62])), "is a binary file"],
    ["invalid UTF-8", async () => writeFile(path.join(ws, "f.txt"), Buffer.from([0x61, 0xff, 0x0a])), "not valid UTF-8"],
  ])("refuses %s", async (_name, setup, message) => {
    await setup();
    const { error } = await rejection({ path: "f.txt", diff: block("a", "b") });
    expect(error).toMatchObject({ reason: "invalid_param", message: expect.stringContaining(message) });
  });

  it("leaves the file untouched when the person declines, passing on their feedback", async () => {
    await writeFile(path.join(ws, "greet.js"), GREET);
    const { result } = await edit({ path: "greet.js", diff: block("export const answer = 42;", "") }, { approvals: [{ approved: false, feedback: { text: "keep it" } }] });
    expect(result).toEqual({ kind: "rejected", feedback: { text: "keep it" } });
    expect(await readFile(path.join(ws, "greet.js"), "utf8")).toBe(GREET);
    expect(await readdir(ws)).toEqual(["greet.js"]);
  });

  it("passes on feedback given with an approval", async () => {
    await writeFile(path.join(ws, "greet.js"), GREET);
    const { result } = await edit({ path: "greet.js", diff: block("export const answer = 42;", "") }, { approvals: [{ approved: true, feedback: { text: "and add a test" } }] });
    expect(text(result)).toContain("<feedback>\nand add a test\n</feedback>");
  });

  describe("when the file changes while the edit awaits approval", () => {
    function changingContext(change: string): FakeToolContext {
      const { ctx } = fakeToolContext(ws);
      return {
        ...ctx,
        approve: async (request) => {
          await writeFile(path.join(ws, "greet.js"), change);
          return ctx.approve(request);
        },
      };
    }

    it("applies the approved diff to the new text when it still fits", async () => {
      await writeFile(path.join(ws, "greet.js"), GREET);
      const changed = `// header\n${GREET}`;
      await runTool(replaceInFileTool, { path: "greet.js", diff: block("export const answer = 42;", "export const answer = 43;") }, changingContext(changed));
      expect(await readFile(path.join(ws, "greet.js"), "utf8")).toBe(changed.replace("42", "43"));
    });

    it("refuses, keeping the person's version, when it no longer fits", async () => {
      await writeFile(path.join(ws, "greet.js"), GREET);
      const changed = GREET.replace("42", "41");
      const run = runTool(replaceInFileTool, { path: "greet.js", diff: block("export const answer = 42;", "export const answer = 43;") }, changingContext(changed));
      await expect(run).rejects.toMatchObject({ reason: "invalid_param", message: expect.stringContaining("changed on disk while the edit awaited approval") });
      expect(await readFile(path.join(ws, "greet.js"), "utf8")).toBe(changed);
    });
  });

  it("presents a partial tool message with the path and the diff so far", async () => {
    const { ctx, log } = fakeToolContext(ws);
    await replaceInFileTool.presentPartial?.({ path: "src/a.ts", diff: "------- SEARCH\nfoo" }, ctx);
    await replaceInFileTool.presentPartial?.({}, ctx);
    expect(log.says).toEqual([{ kind: "tool", text: undefined, tool: { tool: "replace_in_file", path: "src/a.ts", content: "------- SEARCH\nfoo" }, partial: true }]);
    expect(log.approvals).toEqual([]);
  });

  it("describes the format, the matching rules and the habits that make edits land", () => {
    const d = replaceInFileTool.description;
    for (const phrase of ["------- SEARCH", "=======", "+++++++ REPLACE", "ignoring leading/trailing whitespace", "first and last lines", "Keep SEARCH blocks short and unique", "One edit per block, and list blocks in file order"]) {
      expect(d).toContain(phrase);
    }
    expect(replaceInFileTool.example).toMatch(/^<replace_in_file>\n<path>.+<\/path>\n<diff>\n------- SEARCH\n[\s\S]+\n=======\n[\s\S]+\n\+{7} REPLACE\n<\/diff>\n<\/replace_in_file>$/);
    expect(replaceInFileTool.params.map((p) => [p.name, p.required])).toEqual([["path", true], ["diff", true]]);
  });
});

describe("replace_in_file after a whole read the conversation still holds", () => {
  /** A conversation the ledger watches: each read's result becomes a message of its own round. */
  function conversation() {
    const history: ApiMessage[] = [];
    let round = 0;
    const ledger = new ReadLedger({ apiHistory: history, replaceApiMessage: (i, m) => void (history[i] = m) }, () => round);
    const { ctx } = fakeToolContext(ws);
    const withReads = { ...ctx, reads: ledger };
    return {
      async read(file: string) {
        round += 1;
        const result = await runTool(readFileTool, { path: file }, withReads);
        history.push({ role: "user", content: [{ type: "text", text: text({ result }) }] });
        ledger.settle();
      },
      edit: async (params: Record<string, string>) => text({ result: await runTool(replaceInFileTool, params, withReads) }),
    };
  }
  const text = ({ result }: { result: Awaited<ReturnType<typeof runTool>> }) => (result.kind === "ok" && typeof result.content === "string" ? result.content : "");

  it("shows only the edited regions of a small file, pointing at that read", async () => {
    await writeFile(path.join(ws, "greet.js"), GREET);
    const talk = conversation();
    await talk.read("greet.js");
    const out = await talk.edit({ path: "greet.js", diff: block("export const answer = 42;", "export const answer = 43;") });
    expect(out).toContain("The rest of the file is as your read of it in request 1 shows");
    expect(out).toContain('<final_file_content path="greet.js" lines="2-5">\n2|  return "Hello " + name;\n3|}\n4|\n5|export const answer = 43;\n</final_file_content>');
  });

  it("shows the whole small file when it changed on disk since that read, or was never read whole", async () => {
    await writeFile(path.join(ws, "greet.js"), GREET);
    const talk = conversation();
    await talk.read("greet.js");
    await writeFile(path.join(ws, "greet.js"), `// touched\n${GREET}`);
    const changed = await talk.edit({ path: "greet.js", diff: block("export const answer = 42;", "export const answer = 43;") });
    expect(changed).toContain("Here is the whole file as it now is.");
    expect(changed).not.toContain("your read of it");
    await writeFile(path.join(ws, "other.js"), GREET);
    expect(await talk.edit({ path: "other.js", diff: block("export const answer = 42;", "export const answer = 7;") })).toContain("Here is the whole file as it now is.");
  });

  it.each([
    ["a final newline", "a\nb\n"],
    ["no final newline", "a\nb"],
    ["CRLF and a BOM", "\uFEFFa\r\nb\r\n"],
    ["blank lines at the end", "a\n\n\n"],
    ["one empty line", "\n"],
  ])("formats the text as read_file shows it (%s), so a held read is recognised", async (_name, content) => {
    await writeFile(path.join(ws, "f.txt"), content);
    const { ctx } = fakeToolContext(ws);
    expect(await readTextOf("f.txt", content, { start: 1, end: Number.POSITIVE_INFINITY })).toBe(text({ result: await runTool(readFileTool, { path: "f.txt" }, ctx) }));
  });
});
