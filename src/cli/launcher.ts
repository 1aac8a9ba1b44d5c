#!/usr/bin/env node
/**
 * The `tandem` command (dist/cli.js). It runs the CLI bundle beside it (cli-main.js) with the V8
 * code cache the build made of that bundle (cli-main.js.cache), so a start does not compile 3 MB
 * of JavaScript again: `tandem --help` took 190 ms, 110 with the cache. V8 checks a cache against
 * the source, its own version and its flags; one it rejects (another Node, say) costs only the
 * compile that would have happened anyway. Code run this way has no native import(), so the
 * bundles hold none (esbuild-options.mjs turns each into a require()).
 */
import { readFileSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

export const CLI_BUNDLE = "cli-main.js";
export const CLI_CODE_CACHE = `${CLI_BUNDLE}.cache`;
/** Set by the build only: where to write the code cache once this run is over. */
const CACHE_OUT = "TANDEM_CODE_CACHE_OUT";

export interface CompiledCli {
  /** Runs the CLI as the main program of this process. */
  run(): void;
  /** True when V8 refused the cache, false when it used it, undefined when there was none. */
  readonly cacheRejected: boolean | undefined;
  /** The cache of what is compiled so far (after a run, its functions too). */
  createCache(): Buffer;
}

/** Compiles the CLI bundle in `dir`, with its code cache when there is one. */
export function compileCli(dir: string): CompiledCli {
  const file = join(dir, CLI_BUNDLE);
  const cachedData = readIfThere(join(dir, CLI_CODE_CACHE));
  const script = new Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData });
  return {
    cacheRejected: cachedData ? script.cachedDataRejected : undefined,
    createCache: () => script.createCachedData(),
    run() {
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      const bundle = new Module(file);
      bundle.filename = file;
      wrapper.call(bundle.exports, bundle.exports, createRequire(file), bundle, file, dirname(file));
    },
  };
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

if (require.main === module) {
  const cli = compileCli(__dirname);
  const out = process.env[CACHE_OUT];
  if (out) {
    delete process.env[CACHE_OUT];
    process.once("exit", () => writeFileSync(out, cli.createCache()));
  }
  cli.run();
}
