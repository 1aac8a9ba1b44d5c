import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildDocx } from "../../../../test/fixtures/documents/build-docx";
import { buildEncryptedPdf, buildPdf } from "../../../../test/fixtures/documents/build-pdf";
import { fakeToolContext, runTool, tempDir } from "../../../../test/support/tool-context";
import { MAX_BYTES, MAX_LINES } from "../../files/read-text";
import { readFileTool } from "./read-file";
import type { ToolResult } from "./types";

let ws: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir: ws, cleanup } = await tempDir()));
afterEach(() => cleanup());

function text(result: ToolResult): string {
  if (result.kind !== "ok" || typeof result.content !== "string") throw new Error(`unexpected result ${JSON.stringify(result)}`);
  return result.content;
}

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

async function read(params: Record<string, string>) {
  const { ctx, log } = fakeToolContext(ws);
  return { result: await runTool(readFileTool, params, ctx), log };
}

describe("read_file", () => {
  it("numbers every line and asks for read approval with the resolved path first", async () => {
    await writeFile(path.join(ws, "a.txt"), "alpha\r\nbeta\n\ngamma");
    const { result, log } = await read({ path: "a.txt" });
    expect(text(result)).toBe("1|alpha\n2|beta\n3|\n4|gamma");
    expect(log.approvals).toEqual([
      {
        category: "read",
        message: { tool: "read_file", path: "a.txt", content: path.join(ws, "a.txt"), outsideWorkspace: false },
        paths: [path.join(ws, "a.txt")],
      },
    ]);
  });

  it("shows only the requested range, numbered as in the file", async () => {
    await writeFile(path.join(ws, "n.txt"), numbered(30));
    expect(text((await read({ path: "n.txt", start_line: "10", end_line: "12" })).result)).toBe(
      "10|line 10\n11|line 11\n12|line 12",
    );
    expect(text((await read({ path: "n.txt", start_line: "29", end_line: "99" })).result)).toBe("29|line 29\n30|line 30");
  });

  it("rejects bad ranges with a message the model can act on", async () => {
    await writeFile(path.join(ws, "n.txt"), numbered(5));
    await expect(read({ path: "n.txt", start_line: "0" })).rejects.toMatchObject({ reason: "invalid_param", message: /start_line/ });
    await expect(read({ path: "n.txt", start_line: "abc" })).rejects.toMatchObject({ reason: "invalid_param" });
    await expect(read({ path: "n.txt", start_line: "4", end_line: "2" })).rejects.toMatchObject({ message: /before start_line/ });
    await expect(read({ path: "n.txt", start_line: "9" })).rejects.toMatchObject({ message: /past the end.*5 lines/ });
  });

  it(`cuts at ${MAX_LINES} lines and says how to read on`, async () => {
    await writeFile(path.join(ws, "big.txt"), numbered(MAX_LINES + 500));
    const out = text((await read({ path: "big.txt" })).result);
    expect(out.split("\n").filter((l) => /^\d+\|/.test(l))).toHaveLength(MAX_LINES);
    expect(out).toContain(`${MAX_LINES}|line ${MAX_LINES}\n`);
    expect(out).toContain(`start_line=${MAX_LINES + 1}`);
    const next = text((await read({ path: "big.txt", start_line: String(MAX_LINES + 1) })).result);
    expect(next.split("\n")[0]).toBe(`${MAX_LINES + 1}|line ${MAX_LINES + 1}`);
    expect(next).not.toContain("[Output cut");
  });

  it("cuts at the byte cap before the line cap", async () => {
    const line = "x".repeat(999);
    await writeFile(path.join(ws, "wide.txt"), `${line}\n`.repeat(400));
    const out = text((await read({ path: "wide.txt" })).result);
    const shown = Math.floor(MAX_BYTES / 1000);
    expect(out).toContain(`showing lines 1-${shown}`);
    expect(out).toContain(`start_line=${shown + 1}`);
    expect(Buffer.byteLength(out)).toBeLessThan(MAX_BYTES + 10 * shown + 500);
  });

  it("cuts a single overlong line and says so", async () => {
    await writeFile(path.join(ws, "min.js"), "y".repeat(MAX_BYTES * 2));
    const out = text((await read({ path: "min.js" })).result);
    expect(out).toMatch(/Line 1 is longer than 256 KB/);
    expect(out.length).toBeLessThan(MAX_BYTES + 500);
  });

  it("refuses binary files after approval", async () => {
    await writeFile(path.join(ws, "img.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    await expect(read({ path: "img.png" })).rejects.toMatchObject({ reason: "invalid_param", message: /binary/ });
  });

  it("reports a missing file with its resolved path, without asking", async () => {
    const { ctx, log } = fakeToolContext(ws);
    await expect(runTool(readFileTool, { path: "nope/x.ts" }, ctx)).rejects.toMatchObject({
      reason: "not_found",
      message: `File not found: ${path.join(ws, "nope", "x.ts")}`,
    });
    expect(log.approvals).toHaveLength(0);
  });

  it("returns rejected with the person's feedback when denied", async () => {
    await writeFile(path.join(ws, "a.txt"), "secret");
    const { ctx } = fakeToolContext(ws, { approvals: [{ approved: false, feedback: { text: "not that one" } }] });
    expect(await runTool(readFileTool, { path: "a.txt" }, ctx)).toEqual({ kind: "rejected", feedback: { text: "not that one" } });
  });

  it("handles empty files, BOMs and folders", async () => {
    await writeFile(path.join(ws, "empty.txt"), "");
    expect(text((await read({ path: "empty.txt" })).result)).toBe("(empty.txt is empty)");
    await writeFile(path.join(ws, "bom.txt"), "\uFEFFhello\n");
    expect(text((await read({ path: "bom.txt" })).result)).toBe("1|hello");
    await expect(read({ path: "." })).rejects.toMatchObject({ reason: "invalid_param", message: /not a file/ });
  });

  it("stops when the task is aborted", async () => {
    await writeFile(path.join(ws, "a.txt"), numbered(10));
    const abort = new AbortController();
    abort.abort();
    const { ctx } = fakeToolContext(ws, { signal: abort.signal });
    await expect(runTool(readFileTool, { path: "a.txt" }, ctx)).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("read_file on documents", () => {
  it("shows a PDF's text numbered like a text file, after approval", async () => {
    await writeFile(path.join(ws, "tides.pdf"), buildPdf([["High water 06:12", "Low water 12:30"], ["Moon: full"]]));
    const { result, log } = await read({ path: "tides.pdf" });
    expect(text(result)).toBe(
      "1|--- page 1 of 2 ---\n2|High water 06:12\n3|Low water 12:30\n4|--- page 2 of 2 ---\n5|Moon: full",
    );
    expect(log.approvals).toHaveLength(1);
    expect(text((await read({ path: "tides.pdf", start_line: "4", end_line: "5" })).result)).toBe("4|--- page 2 of 2 ---\n5|Moon: full");
  });

  it("shows a .docx one paragraph per line, with the same ranges and range errors", async () => {
    await writeFile(path.join(ws, "memo.docx"), buildDocx(["To: crew", "Sail at dawn.", "Bring charts."]));
    expect(text((await read({ path: "memo.docx" })).result)).toBe("1|To: crew\n2|Sail at dawn.\n3|Bring charts.");
    expect(text((await read({ path: "memo.docx", start_line: "2", end_line: "2" })).result)).toBe("2|Sail at dawn.");
    await expect(read({ path: "memo.docx", start_line: "9" })).rejects.toMatchObject({ message: /past the end of memo\.docx, which has 3 lines/ });
  });

  it(`cuts extracted text at ${MAX_LINES} lines and says how to read on`, async () => {
    const paragraphs = Array.from({ length: MAX_LINES + 10 }, (_, i) => `paragraph ${i + 1}`);
    await writeFile(path.join(ws, "long.docx"), buildDocx(paragraphs));
    const out = text((await read({ path: "long.docx" })).result);
    expect(out).toContain(`${MAX_LINES}|paragraph ${MAX_LINES}\n`);
    expect(out).toContain(`start_line=${MAX_LINES + 1}`);
    const rest = text((await read({ path: "long.docx", start_line: String(MAX_LINES + 1) })).result);
    expect(rest.split("\n")).toHaveLength(10);
  });

  it("shows a notebook's cells rather than its JSON", async () => {
    const notebook = { nbformat: 4, cells: [{ cell_type: "code", source: ["import math\n", "math.pi"], outputs: [] }] };
    await writeFile(path.join(ws, "nb.ipynb"), JSON.stringify(notebook));
    expect(text((await read({ path: "nb.ipynb" })).result)).toBe("1|--- cell 1 (code) ---\n2|import math\n3|math.pi");
  });

  it("says when a PDF has no text instead of showing nothing", async () => {
    await writeFile(path.join(ws, "scan.pdf"), buildPdf([[]]));
    expect(text((await read({ path: "scan.pdf" })).result)).toBe("(scan.pdf has no extractable text: its pages may be scanned images.)");
  });

  it("refuses encrypted and damaged documents with a clear message", async () => {
    await writeFile(path.join(ws, "locked.pdf"), buildEncryptedPdf());
    await expect(read({ path: "locked.pdf" })).rejects.toMatchObject({ reason: "failed", message: /locked\.pdf is an encrypted PDF/ });
    await writeFile(path.join(ws, "broken.docx"), "not a zip");
    await expect(read({ path: "broken.docx" })).rejects.toMatchObject({ reason: "failed", message: /broken\.docx could not be read as a Word document/ });
  });

  it("extracts nothing when the person declines", async () => {
    await writeFile(path.join(ws, "locked.pdf"), buildEncryptedPdf());
    const { ctx } = fakeToolContext(ws, { approvals: [{ approved: false }] });
    expect(await runTool(readFileTool, { path: "locked.pdf" }, ctx)).toEqual({ kind: "rejected", feedback: undefined });
  });
});
