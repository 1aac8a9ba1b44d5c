// Bundles the extension host entry, the lazy agent core and the headless CLI into dist/, with the
// options of esbuild-options.mjs (shared with the bundle tests).
// Usage: node esbuild.mjs [--production] [--watch]
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

const shipped = bundleOptions({ outdir: "dist", production });
const options = {
  ...shipped,
  logLevel: watch ? "silent" : "info",
  plugins: watch ? [...shipped.plugins, problemMatcherPlugin] : shipped.plugins,
};

copyTreeSitterWasm("dist");
copySandboxVendor("dist");

if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
} else {
  await esbuild.build(options);
  writeCliCodeCache("dist");
}
