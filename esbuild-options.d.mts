// Types of esbuild-options.mjs (plain JavaScript so `node esbuild.mjs` runs without a TypeScript loader).
import type { BuildOptions, Plugin } from "esbuild";

export declare const REPO_ROOT: string;
/** Modules built as lazy/<name>.js beside the bundles, loaded on first use. */
export declare const LAZY_MODULES: readonly string[];
export declare function bundleOptions(target: { outdir: string; production: boolean }): BuildOptions & { plugins: Plugin[] };
export declare function copyTreeSitterWasm(outdir: string): void;
export declare const SANDBOX_VENDOR_FILES: readonly { readonly file: string; readonly mode: number }[];
export declare function copySandboxVendor(outdir: string): void;
/** Writes <outdir>/cli-main.js.cache, the V8 code cache the CLI launcher (cli.js) compiles the agent bundle with. */
export declare function writeCliCodeCache(outdir: string): void;
