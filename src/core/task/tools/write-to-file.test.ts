import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeToolContext, runTool, tempDir } from "../../../../test/support/tool-context";
import { stripCodeFences, writeToFileTool } from "./write-to-file";

let root: string;
let ws: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir());
  ws = path.join(root, "ws");
  await mkdir(ws);
});
afterEach(() => cleanup());

async function write(params: Record<string, string>, approved = true) {
  const { ctx, log } = fakeToolContext(ws, { approvals: [{ approved, feedback: approved ? undefined : { text: "no" } }] });
  return { result: await runTool(writeToFileTool, params, ctx), log };
}

describe("write_to_file", () => {
  it("creates missing folders, writes the file and asks for edit approval with path and content", async () => {
    const { result, log } = await write({ path: "src/deep/new.ts", content: "export {};\n" });
    expect(result).toEqual({ kind: "ok", content: "The content was successfully saved to src/deep/new.ts." });
    expect(await readFile(path.join(ws, "src/deep/new.ts"), "utf8")).toBe("export {};\n");
    expect(log.approvals).toEqual([
      {
        category: "edit",
        message: { tool: "write_to_file", path: "src/deep/new.ts", content: "export {};\n", outsideWorkspace: false },
        paths: [path.join(ws, "src/deep/new.ts")],
      },
    ]);
    expect(await readdir(path.join(ws, "src/deep"))).toEqual(["new.ts"]);
  });

  it("keeps an existing file's CRLF line endings", async () => {
    await writeFile(path.join(ws, "win.txt"), "old\r\nfile\r\n");
    await write({ path: "win.txt", content: "one\ntwo\r\nthree\n" });
    expect(await readFile(path.join(ws, "win.txt"), "utf8")).toBe("one\r\ntwo\r\nthree\r\n");
  });

  it("leaves LF files and new files as given", async () => {
    await writeFile(path.join(ws, "unix.txt"), "old\nfile\n");
    await write({ path: "unix.txt", content: "a\nb\n" });
    expect(await readFile(path.join(ws, "unix.txt"), "utf8")).toBe("a\nb\n");
  });

  it("strips a code fence wrapped around the whole content", async () => {
    await write({ path: "f.py", content: "```python\nprint('hi')\n```\n" });
    expect(await readFile(path.join(ws, "f.py"), "utf8")).toBe("print('hi')\n");
  });

  it("rejection leaves the file untouched and returns the feedback", async () => {
    await writeFile(path.join(ws, "keep.txt"), "original");
    const { result } = await write({ path: "keep.txt", content: "replaced" }, false);
    expect(result).toEqual({ kind: "rejected", feedback: { text: "no" } });
    expect(await readFile(path.join(ws, "keep.txt"), "utf8")).toBe("original");
    expect(await readdir(ws)).toEqual(["keep.txt"]);
  });

  it("flags a write through a symlink that leads outside the workspace", async () => {
    await mkdir(path.join(root, "outside"));
    await symlink(path.join(root, "outside"), path.join(ws, "link"));
    const { log } = await write({ path: "link/x.txt", content: "x" });
    expect(log.approvals[0]?.message.outsideWorkspace).toBe(true);
    expect(await readFile(path.join(root, "outside", "x.txt"), "utf8")).toBe("x\n");
  });

  it("gives a new file a final newline and keeps an existing file's choice", async () => {
    await write({ path: "new.txt", content: "line" });
    expect(await readFile(path.join(ws, "new.txt"), "utf8")).toBe("line\n");
    await writeFile(path.join(ws, "bare.txt"), "no newline");
    await write({ path: "bare.txt", content: "still none\n" });
    expect(await readFile(path.join(ws, "bare.txt"), "utf8")).toBe("still none");
    await writeFile(path.join(ws, "crlf.txt"), "a\r\nb\r\n");
    await write({ path: "crlf.txt", content: "c\nd" });
    expect(await readFile(path.join(ws, "crlf.txt"), "utf8")).toBe("c\r\nd\r\n");
  });

  it("refuses to overwrite a folder", async () => {
    await mkdir(path.join(ws, "dir"));
    await expect(write({ path: "dir", content: "x" })).rejects.toMatchObject({ reason: "invalid_param" });
  });

  it("presents a partial tool message with the path while streaming", async () => {
    const { ctx, log } = fakeToolContext(ws);
    await writeToFileTool.presentPartial?.({ path: "src/a.ts", content: "expo" }, ctx);
    await writeToFileTool.presentPartial?.({}, ctx);
    expect(log.says).toEqual([
      { kind: "tool", text: undefined, tool: { tool: "write_to_file", path: "src/a.ts", content: "expo" }, partial: true },
    ]);
    expect(log.approvals).toHaveLength(0);
  });
});

describe("stripCodeFences", () => {
  it("needs both an opening and a closing fence", () => {
    expect(stripCodeFences("```\na\n```")).toBe("a\n");
    expect(stripCodeFences("\n```ts\na\n\nb\n```\n\n")).toBe("a\n\nb\n");
    expect(stripCodeFences("```ts\na\n")).toBe("```ts\na\n");
    expect(stripCodeFences("a\n```\n")).toBe("a\n```\n");
    expect(stripCodeFences("```\n```")).toBe("");
  });

  it("keeps fences inside the file and CRLF inside the fence", () => {
    const md = "# Doc\n```js\nx()\n```\n";
    expect(stripCodeFences(md)).toBe(md);
    expect(stripCodeFences("```c\r\nint x;\r\n```\r\n")).toBe("int x;\r\n");
  });
});
