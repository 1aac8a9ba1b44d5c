/**
 * Runs a CommonJS bundle as require() would, but compiled with a V8 code cache: core.js (3.5 MB)
 * compiles in about 12 ms with one instead of 85. V8 checks a cache against its own version and
 * flags and the source's length only, so a cache must be kept for exactly one build of the bundle
 * (the caller's naming says which). One it refuses costs only the compile that happens anyway.
 * Code run this way has no native import() (on Node 20), which is why the bundles hold none
 * (esbuild-options.mjs turns each into a require()).
 */
import { readFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { Script } from "node:vm";

export interface CompiledBundle {
  /** Evaluates the bundle and gives its exports (once: each call evaluates it again). */
  load(): unknown;
  /** True when V8 refused the cache, false when it used it, undefined when there was none. */
  readonly cacheRejected: boolean | undefined;
  /** The cache of what is compiled so far (after load(), the functions it ran too). */
  createCache(): Buffer;
}

/** Compiles the bundle `path` with the cache `cachedData`, if any. */
export function compileBundle(path: string, cachedData: Buffer | undefined): CompiledBundle {
  const file = resolve(path);
  const script = new Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData });
  return {
    cacheRejected: cachedData ? script.cachedDataRejected : undefined,
    createCache: () => script.createCachedData(),
    load() {
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      const bundle = new Module(file);
      bundle.filename = file;
      wrapper.call(bundle.exports, bundle.exports, createRequire(file), bundle, file, dirname(file));
      return bundle.exports;
    },
  };
}

/** The file's bytes, or undefined when it cannot be read (a missing cache is no error). */
export function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
