// Bundles the extension host entry, the lazy agent core and the headless CLI into dist/, with the
// options of esbuild-options.mjs (shared with the bundle tests).
// Usage: node esbuild.mjs [--production] [--watch]
import { statSync } from "node:fs";
import * as esbuild from "esbuild";
import { bundleOptions, copySandboxVendor, copyTreeSitterWasm, writeCliCodeCache } from "./esbuild-options.mjs";

const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");

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

/** Each rebuild of cli-main.js gets its own code cache: V8 would take an old one of the same length for it. */
const codeCachePlugin = {
  name: "code-cache",
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length === 0) writeCliCodeCache("dist");
    });
  },
};

const shipped = bundleOptions({ outdir: "dist", production });
const options = {
  ...shipped,
  logLevel: watch ? "silent" : "info",
  plugins: watch ? [...shipped.plugins, codeCachePlugin, problemMatcherPlugin] : shipped.plugins,
};

copyTreeSitterWasm("dist");
copySandboxVendor("dist");

if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
} else {
  // esbuild's summary lists each bundle's size; the code cache is made after it.
  await esbuild.build(options);
  writeCliCodeCache("dist");
  console.log(`  dist/cli-main.js.cache  ${(statSync("dist/cli-main.js.cache").size / 1024 / 1024).toFixed(1)}mb  (the V8 code cache the CLI compiles its agent bundle with)\n`);
}
