/**
 * The tree-sitter files must be found after esbuild has bundled the code into one CommonJS
 * file outside node_modules (the packaged extension): this builds such a bundle the way
 * esbuild.mjs does, copies TREE_SITTER_WASM_FILES next to it, and runs it.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TREE_SITTER_WASM_FILES } from "./wasm-files";

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../../../../..");
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tandem-bundle-"));
  await writeFile(
    path.join(dir, "entry.ts"),
    `import { outlineFile, formatOutline } from ${JSON.stringify(path.join(here, "../list-code-definition-names-outline.ts"))};
import { languageForFile } from ${JSON.stringify(path.join(here, "languages.ts"))};
const file = process.argv[2] as string;
outlineFile(file, languageForFile(file)!).then(
  (defs) => console.log(formatOutline("sample", defs)),
  (error: Error) => { console.error(error.message); process.exitCode = 1; },
);
`,
  );
  await writeFile(path.join(dir, "sample.py"), "class A:\n    def m(self):\n        pass\n");
  await esbuild.build({
    entryPoints: [path.join(dir, "entry.ts")],
    outfile: path.join(dir, "dist", "cli.js"),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    logLevel: "silent",
    absWorkingDir: repoRoot,
    define: { "import.meta.url": "__tandemImportMetaUrl" },
    banner: { js: 'const __tandemImportMetaUrl = require("url").pathToFileURL(__filename).href;' },
  });
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("tree-sitter in the bundle", () => {
  it("says which file is missing when the build did not copy the .wasm files", async () => {
    const failure = await run(process.execPath, [path.join(dir, "dist", "cli.js"), path.join(dir, "sample.py")], { cwd: dir }).catch(
      (error: { stderr: string }) => error,
    );
    expect("stderr" in failure ? failure.stderr : "").toMatch(/Cannot find web-tree-sitter\.wasm: it is neither in .*dist\/tree-sitter/);
  });

  it("loads the runtime and grammars from dist/tree-sitter/", async () => {
    await mkdir(path.join(dir, "dist", "tree-sitter"));
    for (const wasm of TREE_SITTER_WASM_FILES) {
      await copyFile(path.join(repoRoot, "node_modules", wasm.module), path.join(dir, "dist", "tree-sitter", wasm.file));
    }
    const { stdout } = await run(process.execPath, [path.join(dir, "dist", "cli.js"), path.join(dir, "sample.py")], { cwd: dir });
    expect(stdout).toBe("sample\n1 | class A:\n2 |     def m(self):\n");
  });
});
