// Bundles the extension host entry (and the headless CLI, once it exists) into dist/.
// Usage: node esbuild.mjs [--production] [--watch]
import * as esbuild from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");

/** Entry points that exist in this checkout (the CLI arrives with the agent loop). */
const entries = [
  { in: "src/extension.ts", out: "extension" },
  { in: "src/core/controller/webview-session.ts", out: "core" },
  { in: "src/cli/main.ts", out: "cli" },
].filter((entry) => existsSync(entry.in));

/**
 * Activation stays cheap: extension.js holds only the VS Code host. The agent core (Controller,
 * tools, provider SDKs, parsers) is its own file, core.js, required when the panel first opens.
 */
const lazyCorePlugin = {
  name: "lazy-core",
  setup(build) {
    build.onResolve({ filter: /core\/controller\/webview-session$/ }, (args) =>
      args.kind === "dynamic-import" ? { path: "./core.js", external: true } : undefined,
    );
  },
};

/** Prints build results in the format the VS Code problem matcher in .vscode/tasks.json reads. */
const problemMatcherPlugin = {
  name: "problem-matcher",
  setup(build) {
    build.onStart(() => console.log("[watch] build started"));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log("[watch] build finished");
    });
  },
};

const options = {
  entryPoints: entries,
  outdir: "dist",
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external: ["vscode"],
  sourcemap: true,
  sourcesContent: false,
  minify: production,
  // Load the lazy core with require(): the extension host resolves CommonJS, as the bundle is.
  supported: { "dynamic-import": false },
  // ESM-only dependencies (p-wait-for) are bundled into the CommonJS output; keep import.meta.url working.
  define: { "import.meta.url": "__tandemImportMetaUrl" },
  banner: { js: 'const __tandemImportMetaUrl = require("url").pathToFileURL(__filename).href;' },
  logLevel: watch ? "silent" : "info",
  plugins: watch ? [lazyCorePlugin, problemMatcherPlugin] : [lazyCorePlugin],
};

/**
 * esbuild bundles JavaScript only: the tree-sitter runtime and grammars (.wasm) are copied next to
 * the bundle, where list_code_definition_names looks for them first.
 */
function copyTreeSitterWasm() {
  const require = createRequire(import.meta.url);
  const files = JSON.parse(readFileSync("src/core/task/tools/tree-sitter/wasm-files.json", "utf8"));
  mkdirSync(join("dist", "tree-sitter"), { recursive: true });
  for (const { file, module } of files) copyFileSync(require.resolve(module), join("dist", "tree-sitter", file));
}

copyTreeSitterWasm();

if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
} else {
  await esbuild.build(options);
}
