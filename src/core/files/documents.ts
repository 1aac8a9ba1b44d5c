/**
 * Text out of documents read_file cannot show as they are: PDF (through unpdf's bundled pdf.js),
 * Word .docx (through mammoth) and Jupyter notebooks (their cells' source). The libraries are
 * imported only when such a file is read, so loading the extension stays cheap.
 */
import { readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import { ToolError } from "./tool-error";
import { errorText } from "../util/error-text";

export type DocumentKind = "pdf" | "docx" | "ipynb";

/** Bigger documents are refused: extraction holds the whole file in memory. */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

const KINDS: Readonly<Record<string, DocumentKind>> = { ".pdf": "pdf", ".docx": "docx", ".ipynb": "ipynb" };

/** An OLE compound file: what Word writes for password-protected documents (and old .doc files). */
const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export function documentKind(filePath: string): DocumentKind | undefined {
  return KINDS[path.extname(filePath).toLowerCase()];
}

/** The document's text (empty when it has none); `label` names it in error messages. */
export async function extractDocumentText(absolute: string, kind: DocumentKind, label: string, signal: AbortSignal): Promise<string> {
  const { size } = await stat(absolute);
  if (size > MAX_DOCUMENT_BYTES) {
    throw new ToolError("invalid_param", `${label} is ${megabytes(size)} MB; read_file extracts text only from documents up to ${megabytes(MAX_DOCUMENT_BYTES)} MB.`);
  }
  const data = await readFile(absolute, { signal });
  switch (kind) {
    case "pdf":
      return extractPdfText(data, label, signal);
    case "docx":
      return extractDocxText(data, label, signal);
    case "ipynb":
      return notebookText(data.toString("utf8"), label);
  }
}

/** What to show when a document holds no text at all. */
export function noTextNote(label: string, kind: DocumentKind): string {
  if (kind === "pdf") return `(${label} has no extractable text: its pages may be scanned images.)`;
  return kind === "docx" ? `(${label} contains no text.)` : `(${label} has no cells with source.)`;
}

/** Every page's text under a `--- page N of M ---` line, so the model can cite pages. */
export async function extractPdfText(data: Uint8Array, label: string, signal: AbortSignal): Promise<string> {
  const { getDocumentProxy } = await import("./document-libraries");
  signal.throwIfAborted();
  // pdf.js may take ownership of the buffer it is given, so it gets a copy.
  const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 }).catch((error: unknown) => {
    throw pdfError(error, label);
  });
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      signal.throwIfAborted();
      const content = await (await pdf.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("").trimEnd());
    }
    if (pages.every((text) => text.trim() === "")) return "";
    return pages.map((text, i) => `--- page ${i + 1} of ${pages.length} ---\n${text}`).join("\n");
  } finally {
    await pdf.loadingTask.destroy();
  }
}

function pdfError(error: unknown, label: string): ToolError {
  const name = error instanceof Error ? error.name : "";
  const message = errorText(error);
  if (name === "PasswordException") {
    return new ToolError("failed", `${label} is an encrypted PDF that needs a password; its text cannot be read.`);
  }
  return new ToolError("failed", `${label} could not be read as a PDF (${message}); the file may be damaged or not a PDF.`);
}

async function extractDocxText(data: Buffer, label: string, signal: AbortSignal): Promise<string> {
  if (data.subarray(0, OLE_SIGNATURE.length).equals(OLE_SIGNATURE)) {
    throw new ToolError(
      "failed",
      `${label} is not a plain .docx: it is an OLE container, which is how Word stores password-protected documents (or an old .doc renamed). Its text cannot be read.`,
    );
  }
  const { mammoth } = await import("./document-libraries");
  const result = await mammoth.extractRawText({ buffer: data }).catch((error: unknown) => {
    const message = errorText(error);
    throw new ToolError("failed", `${label} could not be read as a Word document (${message}); the file may be damaged or not a .docx.`);
  });
  signal.throwIfAborted();
  // mammoth ends every paragraph with a blank line; one line per paragraph reads better numbered.
  return result.value.replace(/\n\n/g, "\n").trimEnd();
}

interface NotebookCell {
  cell_type?: unknown;
  source?: unknown;
}

/** Each cell's source under a `--- cell N (kind) ---` line; outputs are left out. */
export function notebookText(json: string, label: string): string {
  let notebook: { cells?: unknown };
  try {
    notebook = JSON.parse(json) as { cells?: unknown };
  } catch (error) {
    throw new ToolError("failed", `${label} is not valid notebook JSON (${(error as Error).message}).`);
  }
  if (!Array.isArray(notebook?.cells)) {
    throw new ToolError("failed", `${label} has no "cells" list; only Jupyter notebooks of format 4 and later can be shown.`);
  }
  return (notebook.cells as NotebookCell[])
    .map((cell, i) => {
      const kind = typeof cell?.cell_type === "string" ? cell.cell_type : "unknown";
      const source = Array.isArray(cell?.source) ? cell.source.join("") : typeof cell?.source === "string" ? cell.source : "";
      return `--- cell ${i + 1} (${kind}) ---\n${source.trimEnd()}`;
    })
    .join("\n");
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "");
}
