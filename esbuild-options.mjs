// The one definition of how Tandem is bundled. esbuild.mjs builds dist/ with it, and the bundle
// tests (test/bundle/) build a temp folder with it, so a build option that breaks a tool fails CI.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire, isBuiltin } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: builds resolve their entries from here, whatever the caller's cwd. */
export const REPO_ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * Modules that gather big libraries only some tool calls need (PDF and Word reading, web pages to
 * Markdown: 2.6 MB of the 6 MB bundles). Each is built as its own file, `<outdir>/lazy/<name>.js`,
 * and the bundles' dynamic import of it becomes a require() of that file when first used, so
 * starting the CLI or opening the panel does not parse them.
 */
export const LAZY_MODULES = ["src/core/files/document-libraries.ts", "src/core/task/tools/web-page-libraries.ts"];

const lazyName = (file) => file.replace(/^.*\//, "").replace(/\.ts$/, "");

const REQUIRED_LATER = "required-later";

/**
 * No native import() is left in the bundles: the CLI runs its bundle through node:vm with a code
 * cache (src/cli/launcher.ts), where import() does not work on Node 20. Each dynamic import of a
 * lazy module or of a Node module becomes a small CommonJS module that requires it, which esbuild
 * calls when the import runs. (A dependency's import of a computed name stays: the sandbox
 * library's Windows backend, never used here.)
 */
const requireLaterPlugin = {
  name: REQUIRED_LATER,
  setup(build) {
    const lazy = new RegExp(`/(${LAZY_MODULES.map(lazyName).join("|")})$`);
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== "dynamic-import" || args.namespace === REQUIRED_LATER) return undefined;
      if (lazy.test(args.path)) return { path: `./lazy/${lazyName(args.path)}.js`, namespace: REQUIRED_LATER };
      if (isBuiltin(args.path)) return { path: args.path, namespace: REQUIRED_LATER };
      return undefined;
    });
    build.onLoad({ filter: /.*/, namespace: REQUIRED_LATER }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: "js" }));
    build.onResolve({ filter: /.*/, namespace: REQUIRED_LATER }, (args) => ({ path: args.path, external: true }));
  },
};

/** Entry points that exist in this checkout. */
const entries = [
  { in: "src/extension.ts", out: "extension" },
  { in: "src/core/controller/webview-session.ts", out: "core" },
  // `tandem` (cli.js) runs the CLI's bundle (cli-main.js) with its code cache.
  { in: "src/cli/launcher.ts", out: "cli" },
  { in: "src/cli/main.ts", out: "cli-main" },
  ...LAZY_MODULES.map((file) => ({ in: file, out: `lazy/${lazyName(file)}` })),
].filter((entry) => existsSync(join(REPO_ROOT, entry.in)));

const LAZY_CORE = "lazy-core";

/**
 * Activation stays cheap: extension.js holds only the VS Code host. The agent core (Controller,
 * tools, provider SDKs, parsers) is its own file, core.js, loaded when the panel first opens.
 * The extension's `import("./core/controller/webview-session")` becomes a small CommonJS module
 * that calls require("./core.js"): the extension host resolves CommonJS, as the bundle is. Only
 * this one import is turned into require(); every other dynamic import stays native, because
 * dependencies rely on it (web-tree-sitter declares its own `var require` in the function that
 * does `await import("module")`, so a rewritten import would call that undefined local).
 */
const lazyCorePlugin = {
  name: LAZY_CORE,
  setup(build) {
    build.onResolve({ filter: /core\/controller\/webview-session$/ }, (args) =>
      args.kind === "dynamic-import" ? { path: "core.js", namespace: LAZY_CORE } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: LAZY_CORE }, () => ({ contents: 'module.exports = require("./core.js");', loader: "js" }));
    build.onResolve({ filter: /^\.\/core\.js$/, namespace: LAZY_CORE }, () => ({ path: "./core.js", external: true }));
  },
};

/**
 * The esbuild options of a build into `outdir` (absolute, or relative to the repository).
 * `production` is what `npm run package` ships: minified.
 * @param {{ outdir: string, production: boolean }} target
 */
export function bundleOptions({ outdir, production }) {
  return {
    absWorkingDir: REPO_ROOT,
    entryPoints: entries,
    outdir,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    // The sandbox library loads this optional peer (a Windows backend) by a variable specifier only
    // when asked to; external says so, so no build ever tries to resolve it.
    external: ["vscode", "@microsoft/mxc-sdk"],
    sourcemap: true,
    sourcesContent: false,
    minify: production,
    // ESM-only dependencies (p-wait-for) are bundled into the CommonJS output; keep import.meta.url working.
    define: { "import.meta.url": "__tandemImportMetaUrl" },
    banner: { js: 'const __tandemImportMetaUrl = require("url").pathToFileURL(__filename).href;' },
    plugins: [lazyCorePlugin, requireLaterPlugin],
  };
}

/**
 * esbuild bundles JavaScript only: the tree-sitter runtime and grammars (.wasm) are copied next to
 * the bundle, into `<outdir>/tree-sitter/`, where list_code_definition_names looks for them first.
 * @param {string} outdir
 */
export function copyTreeSitterWasm(outdir) {
  const require = createRequire(join(REPO_ROOT, "package.json"));
  const files = JSON.parse(readFileSync(join(REPO_ROOT, "src/core/task/tools/tree-sitter/wasm-files.json"), "utf8"));
  const folder = resolve(REPO_ROOT, outdir, "tree-sitter");
  mkdirSync(folder, { recursive: true });
  for (const { file, module } of files) copyFileSync(require.resolve(module), join(folder, file));
}

/**
 * Files @anthropic-ai/sandbox-runtime runs or hands to the sandboxed command, which esbuild cannot
 * bundle. Bundled, the library looks for them beside its bundle first (`<dir of core.js or
 * cli.js>/vendor/...`, from import.meta.url): apply-seccomp for both Linux architectures (it must
 * be executable: bubblewrap execs it), and the JVM agent that points Java tools at the proxy.
 * The Windows helper (vendor/srt-win, 7.6 MB) is left out: Tandem has no Windows sandbox.
 */
export const SANDBOX_VENDOR_FILES = [
  { file: "vendor/seccomp/x64/apply-seccomp", mode: 0o755 },
  { file: "vendor/seccomp/arm64/apply-seccomp", mode: 0o755 },
  { file: "vendor/java-proxy-agent/srt-proxy-agent.jar", mode: 0o644 },
];

/**
 * Copies SANDBOX_VENDOR_FILES from the installed library into `<outdir>/vendor/`, modes included.
 * @param {string} outdir
 */
export function copySandboxVendor(outdir) {
  const require = createRequire(join(REPO_ROOT, "package.json"));
  const library = dirname(require.resolve("@anthropic-ai/sandbox-runtime/package.json"));
  for (const { file, mode } of SANDBOX_VENDOR_FILES) {
    const target = resolve(REPO_ROOT, outdir, file);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(library, file), target);
    chmodSync(target, mode);
  }
}

/**
 * The V8 code cache of the CLI bundle, `<outdir>/cli-main.js.cache`: made by a `tandem --help`
 * run, so it holds what a start compiles. Without it the CLI compiles as usual.
 * @param {string} outdir
 */
export function writeCliCodeCache(outdir) {
  const folder = resolve(REPO_ROOT, outdir);
  const run = spawnSync(process.execPath, [join(folder, "cli.js"), "--help"], {
    env: { ...process.env, TANDEM_CODE_CACHE_OUT: join(folder, "cli-main.js.cache") },
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`making the CLI's code cache failed (exit ${run.status}): ${run.stderr || run.error?.message}`);
}
