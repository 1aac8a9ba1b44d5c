import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IgnoreController } from "../../ignore/ignore-controller";
import { fakeToolContext, runTool, tempDir } from "../../../../test/support/tool-context";
import { resolveRipgrep } from "./search-files-rg";
import { searchFilesTool } from "./search-files";
import { ToolError, type ToolResult } from "./types";

let root: string;
let cleanup: () => Promise<void>;
let guard: IgnoreController;
/** The host's ripgrep for the next searches (HostBridge.ripgrep): undefined is rg on PATH. */
let ripgrep: string | false | undefined;

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir("tandem-search-"));
});
afterEach(() => cleanup());
afterEach(() => (ripgrep = undefined));

async function files(entries: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(entries)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
  guard = new IgnoreController(root);
  await guard.reload();
}

async function search(params: Record<string, string>): Promise<string> {
  const { ctx } = fakeToolContext(root, { ignored: (p) => guard.isIgnored(p), ignoredBy: (p) => guard.ignoredBy(p), ripgrep });
  const result: ToolResult = await runTool(searchFilesTool, params, ctx);
  if (result.kind !== "ok" || typeof result.content !== "string") throw new Error(`unexpected ${JSON.stringify(result)}`);
  return result.content;
}

async function searchError(params: Record<string, string>): Promise<ToolError> {
  const error: unknown = await search(params).then(() => undefined, (e: unknown) => e);
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return error;
}

const FIXTURE = {
  ".gitignore": "dist/\n",
  ".tandemignore": "private/\n",
  "src/a.ts": "line one\n// TODO: first\nline three\nline four\nline five\nline six\nTODO second\nTODO third\nline nine\n",
  "src/b.py": "def f():\n    pass  # TODO py\n",
  "src/clean.ts": "nothing here\n",
  ".hidden/h.ts": "// TODO hidden\n",
  "dist/out.js": "// TODO built\n",
  "node_modules/lib/index.js": "// TODO dependency\n",
  "private/p.ts": "// TODO private\n",
  ".env": "TODO=secret\n",
  "blob.bin": Buffer.concat([Buffer.from("TODO in binary\n"), Buffer.from([0, 1, 2, 0])]),
};

const engines = [
  ["ripgrep", "rg"],
  ["the JavaScript fallback", false],
] as const;

describe.each(engines)("search_files with %s", (_name, engine) => {
  beforeEach(async () => {
    ripgrep = engine === "rg" ? undefined : false;
    // The rg runs must really use rg: CI installs Debian's ripgrep, and so must a developer.
    expect(await resolveRipgrep(ripgrep), "rg must be on PATH (apt-get install ripgrep)").toBe(engine === "rg" ? "rg" : undefined);
  });

  it("groups matches by file with context and line numbers, skipping ignored, built, dependency and binary files", async () => {
    await files(FIXTURE);
    expect(await search({ path: ".", regex: "TODO" })).toBe(
      [
        "Found 5 matches in 3 files for /TODO/ in ..",
        ".hidden/h.ts\n1: // TODO hidden",
        "src/a.ts\n1- line one\n2: // TODO: first\n3- line three\n--\n6- line six\n7: TODO second\n8: TODO third\n9- line nine",
        "src/b.py\n1- def f():\n2:     pass  # TODO py",
      ].join("\n\n"),
    );
  });

  it("narrows the files by file_pattern, with braces, and by folder", async () => {
    await files(FIXTURE);
    expect(await search({ path: ".", regex: "TODO", file_pattern: "*.py" })).toMatch(/^Found 1 match in 1 file for \/TODO\/ in \. \(files matching \*\.py\)\.\n\nsrc\/b\.py\n/);
    expect(await search({ path: ".", regex: "TODO", file_pattern: "*.{py,ts}" })).toMatch(/^Found 5 matches in 3 files/);
    expect(await search({ path: ".", regex: "TODO", file_pattern: "src/*.ts" })).toMatch(/^Found 3 matches in 1 file/);
    expect(await search({ path: "src", regex: "TODO" })).toMatch(/^Found 4 matches in 2 files for \/TODO\/ in src\./);
    expect(await search({ path: "src/b.py", regex: "pass" })).toBe("Found 1 match in 1 file for /pass/ in src/b.py.\n\nsrc/b.py\n1- def f():\n2:     pass  # TODO py");
  });

  it("searches an explicitly named dependency folder", async () => {
    await files(FIXTURE);
    expect(await search({ path: "node_modules", regex: "TODO" })).toMatch(/node_modules\/lib\/index\.js\n1: \/\/ TODO dependency/);
  });

  it("understands ripgrep syntax: inline flags, POSIX and Unicode classes, named groups", async () => {
    await files({ "t.txt": "Hello World\nabc 123\nÄrger über\nkey=value\n" });
    expect(await search({ path: ".", regex: "(?i)hello world" })).toMatch(/^Found 1 match/);
    expect(await search({ path: ".", regex: "^[[:alpha:]]+ [[:digit:]]+$" })).toMatch(/2: abc 123/);
    expect(await search({ path: ".", regex: "^\\p{Lu}\\pL+ " })).toMatch(/Found 2 matches/);
    expect(await search({ path: ".", regex: "(?P<k>\\w+)=\\x{76}" })).toMatch(/4: key=value/);
    expect(await search({ path: ".", regex: "\\Aabc" })).toMatch(/2: abc 123/);
  });

  it(`cuts the results at 300 matches and says so`, async () => {
    await files({ "many.txt": Array.from({ length: 400 }, (_, i) => `hit ${i + 1}`).join("\n") });
    const output = await search({ path: ".", regex: "hit" });
    expect(output).toMatch(/^Found 300 matches in 1 file/);
    expect(output).toContain("\n300: hit 300\n");
    expect(output).not.toContain("hit 301");
    expect(output.endsWith("[Results cut at 300 matches. Narrow the search with a more specific regex, path or file_pattern.]")).toBe(true);
  });

  it("cuts very long lines", async () => {
    await files({ "min.js": `var a="${"x".repeat(1000)}";TODO\n` });
    const output = await search({ path: ".", regex: "var a" });
    const shown = `var a="${"x".repeat(1000)}`.slice(0, 250);
    expect(output.endsWith(`\n1: ${shown}… [line cut]`)).toBe(true);
  });

  it("reports an invalid regex as the model's mistake, with the engine's message", async () => {
    await files({ "a.txt": "x" });
    const error = await searchError({ path: ".", regex: "(unclosed" });
    expect(error.reason).toBe("invalid_param");
    expect(error.message).toMatch(engine === "rg" ? /The regex is not valid: regex parse error:[\s\S]*unclosed group/ : /The regex is not valid: Invalid regular expression.*Unterminated group/);
  });

  it("refuses an ignored or secret target and a missing one", async () => {
    await files(FIXTURE);
    expect((await searchError({ path: "private", regex: "x" })).message).toBe("private is ignored by .tandemignore, so tools may not touch it.");
    expect((await searchError({ path: ".env", regex: "x" })).message).toMatch(/^\.env looks like a secret file/);
    expect((await searchError({ path: "nope", regex: "x" })).reason).toBe("not_found");
    expect((await searchError({ path: ".", regex: "x", file_pattern: "*.{ts" })).reason).toBe("invalid_param");
  });

  it("stops when the task is cancelled", async () => {
    await files({ "a.txt": "x" });
    const controller = new AbortController();
    controller.abort();
    const { ctx } = fakeToolContext(root, { signal: controller.signal, ripgrep });
    await expect(runTool(searchFilesTool, { path: ".", regex: "x" }, ctx)).rejects.toThrow(/abort/i);
  });

  it("finds nothing without failing", async () => {
    await files({ "a.txt": "alpha" });
    expect(await search({ path: ".", regex: "omega" })).toBe("Found 0 matches for /omega/ in ..");
  });
});

describe("search_files engines agree", () => {
  it("gives the same answer through ripgrep and the fallback on a mixed tree", async () => {
    const mixed: Record<string, string> = { ".gitignore": "*.tmp\n", "z.tmp": "needle\n" };
    for (let i = 0; i < 12; i++) mixed[`d${i % 3}/sub${i % 2}/f${i}.txt`] = `a\nneedle ${i}\nb\n${i % 2 ? "needle again\n" : ""}c\n`;
    await files(mixed);
    ripgrep = undefined;
    const viaRg = await search({ path: ".", regex: "needle \\d|again" });
    ripgrep = false;
    const viaJs = await search({ path: ".", regex: "needle \\d|again" });
    expect(viaRg).toMatch(/^Found 18 matches in 12 files/);
    expect(viaJs).toBe(viaRg);
  });
});

describe("search_files ripgrep selection", () => {
  it("uses the ripgrep the host names, and says so when it cannot be started", async () => {
    await files({ "a.txt": "x" });
    ripgrep = path.join(root, "no-such-rg");
    await expect(search({ path: ".", regex: "x" })).rejects.toThrow(/Could not run ripgrep \(.*no-such-rg\)/);
  });

  it("asks for read approval with the results, and passes a refusal on", async () => {
    await files({ "a.txt": "x" });
    const { ctx, log } = fakeToolContext(root, { approvals: [{ approved: false }] });
    expect(await runTool(searchFilesTool, { path: ".", regex: "x" }, ctx)).toEqual({ kind: "rejected", feedback: undefined });
    expect(log.approvals[0]).toMatchObject({ category: "read", message: { tool: "search_files", path: ".", outsideWorkspace: false }, paths: [root] });
    expect(log.approvals[0]?.message.content).toMatch(/^Found 1 match/);
  });
});
