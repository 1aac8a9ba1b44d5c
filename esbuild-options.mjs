// The one definition of how Tandem is bundled. esbuild.mjs builds dist/ with it, and the bundle
// tests (test/bundle/) build a temp folder with it, so a build option that breaks a tool fails CI.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire, isBuiltin } from "node:module";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: builds resolve their entries from here, whatever the caller's cwd. */
export const REPO_ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * Modules that gather big libraries only some tool calls need (PDF and Word reading, web pages to
 * Markdown: 2.6 MB of the 6 MB bundles; the shell parser, 1.3 MB). Each is built as its own file,
 * `<outdir>/lazy/<name>.js`, and the bundles' import of it becomes a require() of that file, made
 * when the importing module is first evaluated (a dynamic import, or a static one in a module that
 * is itself imported dynamically), so starting the CLI or opening the panel does not read them.
 */
export const LAZY_MODULES = ["src/core/files/document-libraries.ts", "src/core/task/tools/web-page-libraries.ts", "src/core/permissions/shell-parser-library.ts"];

const lazyName = (file) => file.replace(/^.*\//, "").replace(/\.ts$/, "");

const REQUIRED_LATER = "required-later";

/**
 * No native import() is left in the bundles: the CLI and the extension run the big ones
 * (cli-main.js, core.js) through node:vm with a code cache (src/core/util/cached-bundle.ts), where
 * import() does not work on Node 20. Each dynamic import of a lazy module or of a Node module
 * becomes a small CommonJS module that requires it, which esbuild calls when the import runs.
 * (A dependency's import of a computed name stays: the sandbox library's Windows backend, never
 * used here.) A static import of a lazy module becomes a require() of its file.
 */
const requireLaterPlugin = {
  name: REQUIRED_LATER,
  setup(build) {
    const lazy = new RegExp(`/(${LAZY_MODULES.map(lazyName).join("|")})$`);
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.namespace === REQUIRED_LATER) return undefined;
      const dynamic = args.kind === "dynamic-import";
      // A static import of an external is a require() already, made where the importer is evaluated.
      if (lazy.test(args.path)) return dynamic ? { path: `./lazy/${lazyName(args.path)}.js`, namespace: REQUIRED_LATER } : { path: `./lazy/${lazyName(args.path)}.js`, external: true };
      if (dynamic && isBuiltin(args.path)) return { path: args.path, namespace: REQUIRED_LATER };
      return undefined;
    });
    build.onLoad({ filter: /.*/, namespace: REQUIRED_LATER }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: "js" }));
    build.onResolve({ filter: /.*/, namespace: REQUIRED_LATER }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * Two of the sandbox library's modules are swapped for Tandem's own in the bundles:
 * - `utils/which.js`: it finds programs (bwrap, socat, the shell) by running `which` under a 1 s
 *   limit, at each start and for every command; on a loaded machine the limit passed and an
 *   installed socat was reported missing, which turned the sandbox off (--sandbox on then refused
 *   every command). src/core/sandbox/program-lookup.ts gives the same answer, found in this process.
 * - `utils/ripgrep.js`: before each command it searched, in a process, for protected files below
 *   this process's working folder, which Tandem finds itself (src/core/sandbox/no-cwd-scan.ts).
 * A library that no longer has one of these modules fails the build here, not a command at run time.
 */
const SANDBOX_LIBRARY = `${sep}node_modules${sep}@anthropic-ai${sep}sandbox-runtime${sep}`;
const SANDBOX_SWAPS = new Map([
  ["../utils/which.js", "src/core/sandbox/program-lookup.ts"],
  ["../utils/ripgrep.js", "src/core/sandbox/no-cwd-scan.ts"],
]);
const sandboxSwapsPlugin = {
  name: "sandbox-library-swaps",
  setup(build) {
    let libraryBundled = false;
    const swapped = new Set();
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!args.importer.includes(SANDBOX_LIBRARY)) return undefined;
      libraryBundled = true;
      const ours = SANDBOX_SWAPS.get(args.path);
      if (!ours) return undefined;
      swapped.add(args.path);
      return { path: join(REPO_ROOT, ours) };
    });
    build.onEnd((result) => {
      const missing = [...SANDBOX_SWAPS.keys()].filter((module) => !swapped.has(module));
      if (libraryBundled && missing.length > 0 && result.errors.length === 0) {
        throw new Error(`@anthropic-ai/sandbox-runtime no longer imports ${missing.join(", ")}: see sandboxSwapsPlugin in esbuild-options.mjs`);
      }
    });
  },
};

/** Entry points that exist in this checkout. */
const entries = [
  { in: "src/extension.ts", out: "extension" },
  // The agent core, loaded by extension.js when the panel first opens (src/host/vscode/core-bundle.ts).
  { in: "src/core/controller/webview-session.ts", out: "core" },
  // `tandem` (cli.js) reads the command line; only work for the agent loads its bundle (cli-main.js), with its code cache.
  { in: "src/cli/launcher.ts", out: "cli" },
  { in: "src/cli/main.ts", out: "cli-main" },
  // `tandem checkpoints list|restore`, which the launcher loads instead of the agent's bundle.
  { in: "src/cli/checkpoints-command.ts", out: "cli-checkpoints" },
  // `tandem --list-tasks` and `tandem export`, likewise without the agent's bundle.
  { in: "src/cli/history-command.ts", out: "cli-history" },
  ...LAZY_MODULES.map((file) => ({ in: file, out: `lazy/${lazyName(file)}` })),
].filter((entry) => existsSync(join(REPO_ROOT, entry.in)));

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
    plugins: [sandboxSwapsPlugin, requireLaterPlugin],
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
 * The V8 code cache of the CLI's agent bundle, `<outdir>/cli-main.js.cache`: made by loading the
 * bundle as the launcher does (cli.js's compileCli), so it holds what a start compiles. Without
 * it the agent compiles as usual. The old one goes first: V8 checks a cache against the source's
 * length only, so an earlier build's could pass for this one's.
 * @param {string} outdir
 */
export function writeCliCodeCache(outdir) {
  const folder = resolve(REPO_ROOT, outdir);
  const cache = join(folder, "cli-main.js.cache");
  rmSync(cache, { force: true });
  const make = `const cli = require(${JSON.stringify(join(folder, "cli.js"))}).compileCli(${JSON.stringify(folder)}); cli.load(); require("node:fs").writeFileSync(${JSON.stringify(cache)}, cli.createCache());`;
  const run = spawnSync(process.execPath, ["-e", make], { encoding: "utf8", timeout: 60_000 });
  if (run.status !== 0) throw new Error(`making the CLI's code cache failed (exit ${run.status}): ${run.stderr || run.error?.message}`);
}
