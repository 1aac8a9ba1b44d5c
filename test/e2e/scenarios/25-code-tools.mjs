/**
 * The code tools from the installed .vsix: list_code_definition_names outlines a folder and a
 * file (tree-sitter's runtime and grammars loaded from the package's tree-sitter/ folder), and
 * search_files searches with the ripgrep VS Code ships, and read_file reads a PDF with the library
 * core.js loads from the package's lazy/ folder on first use. Reads are auto-approved by default, so
 * no click is needed; what counts is what the model gets back, which a build option that breaks
 * a tool turns into "The tool failed".
 */
import assert from "node:assert/strict";
import { expectWebviewText, openTandemView, saveScreenshot, setApiKey } from "../lib/workbench.mjs";

export const description = "list_code_definition_names, search_files and read_file of a PDF work from the installed .vsix";

const RESULT = "Outlined the code and found the TODOs.";
const FILES = {
  "src/tides.ts": "export class TideTable {\n  highWater(day: number): number {\n    return day; // TODO: real data\n  }\n}\n",
  "src/harbour.py": "class Harbour:\n    def open(self):\n        pass  # TODO: opening hours\n",
  "lib/moon.rs": "pub struct Moon;\n\nimpl Moon {\n    pub fn phase(&self) -> u8 {\n        0\n    }\n}\n",
  // One page with one line; no cross-reference table, which pdf.js rebuilds as it reads.
  "docs/tides.pdf": [
    "%PDF-1.4",
    "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
    "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
    "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >> endobj",
    "4 0 obj << /Length 47 >> stream\nBT /F1 12 Tf 72 720 Td (High water at 06:12) Tj ET\nendstream endobj",
    "5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj",
    "trailer << /Root 1 0 R >>",
    "%%EOF",
  ].join("\n"),
};

/** @param {string} tool @param {Record<string, string>} params */
function call(tool, params) {
  const body = Object.entries(params).map(([name, value]) => `<${name}>${value}</${name}>`);
  return { text: `<${tool}>\n${body.join("\n")}\n</${tool}>` };
}

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function codeTools(t) {
  const session = await t.startSession({
    files: FILES,
    tandem: { provider: "anthropic", modelId: "claude-sonnet-5-5" },
    script: [
      call("list_code_definition_names", { path: "src" }),
      call("list_code_definition_names", { path: "lib/moon.rs" }),
      call("search_files", { path: ".", regex: "TODO: \\w+", file_pattern: "*.{ts,py}" }),
      call("read_file", { path: "docs/tides.pdf" }),
      call("attempt_completion", { result: RESULT }),
    ],
  });
  const { page } = session;
  const webview = await openTandemView(page);
  await setApiKey(page, "sk-ant-e2e-code-tools");
  const input = webview.getByRole("textbox", { name: "Message" });
  await input.fill("Outline the code and find the TODOs");
  await input.press("Enter");
  await expectWebviewText(webview, RESULT, 60_000);
  session.lap("completion shown");
  t.log(`screenshot: ${await saveScreenshot(page, "25-code-tools")}`);

  const requests = await session.model.requests();
  assert.equal(requests.length, 5, "one request per tool call, and one for the completion");
  // The result of turn i is the last message of request i + 1.
  const [folder, file, search, pdf] = requests.slice(1).map((request) => lastMessageText(request));
  for (const result of [folder, file, search, pdf]) assert.doesNotMatch(result, /The tool failed|<error>/, `a tool failed: ${result}`);
  expectIn(folder, "src/harbour.py\n1 | class Harbour:\n2 |     def open(self):", "the folder outline has the Python file");
  expectIn(folder, "src/tides.ts\n1 | export class TideTable {\n2 |   highWater(day: number): number {", "the folder outline has the TypeScript file");
  expectIn(file, "lib/moon.rs\n1 | pub struct Moon;\n3 | impl Moon {\n4 |     pub fn phase(&self) -> u8 {", "the Rust file is outlined");
  expectIn(search, "Found 2 matches in 2 files", "search_files found both TODOs");
  expectIn(search, "src/harbour.py\n2-     def open(self):\n3:         pass  # TODO: opening hours", "the Python match, with context");
  expectIn(pdf, "1|--- page 1 of 1 ---\n2|High water at 06:12", "the PDF's text, read by the lazily loaded library");
  expectIn(search, "src/tides.ts\n2-   highWater(day: number): number {\n3:     return day; // TODO: real data\n4-   }", "the TypeScript match, with context");
}

/** @param {string} text @param {string} part @param {string} what */
function expectIn(text, part, what) {
  assert.ok(text.includes(part), `${what}: expected ${JSON.stringify(part)} in ${JSON.stringify(text)}`);
}

/** The text blocks of a recorded Anthropic request's last message. */
function lastMessageText(request) {
  const content = request.body.messages.at(-1)?.content ?? "";
  return typeof content === "string" ? content : content.map((block) => block.text ?? "").join("\n");
}
