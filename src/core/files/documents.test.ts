import { truncate, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildDocx, buildZip } from "../../../test/fixtures/documents/build-docx";
import { buildEncryptedPdf, buildPdf } from "../../../test/fixtures/documents/build-pdf";
import { tempDir } from "../../../test/support/tool-context";
import { documentKind, extractDocumentText, extractPdfText, MAX_DOCUMENT_BYTES, noTextNote, notebookText, type DocumentKind } from "./documents";

let ws: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir: ws, cleanup } = await tempDir()));
afterEach(() => cleanup());

const live = () => new AbortController().signal;

async function extract(name: string, data: Buffer | string, signal = live()): Promise<string> {
  const file = path.join(ws, name);
  await writeFile(file, data);
  const kind = documentKind(file);
  if (!kind) throw new Error(`${name} is not a document`);
  return extractDocumentText(file, kind, name, signal);
}

describe("documentKind", () => {
  it("knows documents by extension, in any case, and nothing else", () => {
    expect(documentKind("/a/Report.PDF")).toBe("pdf");
    expect(documentKind("notes.docx")).toBe("docx");
    expect(documentKind("analysis.ipynb")).toBe("ipynb");
    expect(documentKind("old.doc")).toBeUndefined();
    expect(documentKind("pdf")).toBeUndefined();
    expect(documentKind("image.png")).toBeUndefined();
  });
});

describe("PDF text", () => {
  it("extracts every page's lines under a page heading", async () => {
    const text = await extract("r.pdf", buildPdf([["Tide tables", "High water (spring) at 06:12"], ["Low water at 12:30"]]));
    expect(text).toBe("--- page 1 of 2 ---\nTide tables\nHigh water (spring) at 06:12\n--- page 2 of 2 ---\nLow water at 12:30");
  });

  it("returns nothing for a PDF whose pages hold no text", async () => {
    expect(await extract("blank.pdf", buildPdf([[], []]))).toBe("");
    expect(noTextNote("blank.pdf", "pdf")).toMatch(/no extractable text.*scanned/);
  });

  it("refuses an encrypted PDF with a clear message", async () => {
    await expect(extract("locked.pdf", buildEncryptedPdf())).rejects.toMatchObject({
      name: "ToolError",
      reason: "failed",
      message: "locked.pdf is an encrypted PDF that needs a password; its text cannot be read.",
    });
  });

  it("refuses damaged PDFs and files that are not PDFs at all", async () => {
    const whole = buildPdf([["some text"]]);
    await expect(extract("cut.pdf", whole.subarray(0, 40))).rejects.toMatchObject({ reason: "failed", message: /cut\.pdf could not be read as a PDF/ });
    await expect(extract("fake.pdf", "just some words")).rejects.toMatchObject({ reason: "failed", message: /fake\.pdf could not be read as a PDF/ });
  });

  it("extracts from bytes in memory without touching them", async () => {
    const data = new Uint8Array(buildPdf([["in memory"]]));
    const before = Buffer.from(data);
    expect(await extractPdfText(data, "x.pdf", live())).toBe("--- page 1 of 1 ---\nin memory");
    expect(Buffer.from(data).equals(before)).toBe(true);
  });

  it("stops when the task is aborted", async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(extractPdfText(buildPdf([["x"]]), "x.pdf", abort.signal)).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("Word text", () => {
  it("puts each paragraph on its own line, markup characters intact", async () => {
    const text = await extract("q.docx", buildDocx(["Quarterly report", "Revenue grew & costs <fell>.", "", "Outlook"]));
    expect(text).toBe("Quarterly report\nRevenue grew & costs <fell>.\n\nOutlook");
  });

  it("explains that an OLE container is password protected (or an old .doc)", async () => {
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    await expect(extract("secret.docx", ole)).rejects.toMatchObject({ reason: "failed", message: /secret\.docx.*password-protected/ });
  });

  it("refuses a damaged zip and a zip that is not a Word document", async () => {
    await expect(extract("bad.docx", "PK\u0003\u0004garbage")).rejects.toMatchObject({ reason: "failed", message: /bad\.docx could not be read as a Word document/ });
    await expect(extract("other.docx", buildZip({ "a.txt": "hello" }))).rejects.toMatchObject({
      reason: "failed",
      message: /other\.docx could not be read as a Word document \(.*main document/,
    });
  });
});

describe("notebook cells", () => {
  it("shows each cell's source under its kind, outputs left out", () => {
    const notebook = {
      nbformat: 4,
      cells: [
        { cell_type: "markdown", source: ["# Title\n", "Intro"] },
        { cell_type: "code", source: "print(1)\n", outputs: [{ output_type: "stream", text: "OUTPUT-TEXT" }] },
      ],
    };
    const text = notebookText(JSON.stringify(notebook), "n.ipynb");
    expect(text).toBe("--- cell 1 (markdown) ---\n# Title\nIntro\n--- cell 2 (code) ---\nprint(1)");
    expect(notebookText(JSON.stringify({ cells: [] }), "e.ipynb")).toBe("");
  });

  it("refuses broken JSON and notebooks without cells", async () => {
    await expect(extract("broken.ipynb", "{ not json")).rejects.toMatchObject({ reason: "failed", message: /broken\.ipynb is not valid notebook JSON/ });
    expect(() => notebookText(JSON.stringify({ worksheets: [] }), "v3.ipynb")).toThrow(/v3\.ipynb has no "cells" list/);
    expect(() => notebookText("null", "null.ipynb")).toThrow(/no "cells" list/);
  });
});

describe("size limit", () => {
  it.each<DocumentKind>(["pdf", "docx", "ipynb"])("refuses a .%s over the limit before reading it", async (kind) => {
    const file = path.join(ws, `huge.${kind}`);
    await writeFile(file, "");
    await truncate(file, MAX_DOCUMENT_BYTES + 1);
    await expect(extractDocumentText(file, kind, `huge.${kind}`, live())).rejects.toMatchObject({
      reason: "invalid_param",
      message: /huge\..* is 50 MB; read_file extracts text only from documents up to 50 MB/,
    });
  });
});
