/**
 * Loads the agent core (dist/core.js, 3.5 MB) when the panel first opens, as require() would but
 * with a V8 code cache kept in the extension's storage: compiling it takes 85 ms of the panel's
 * first state, 12 with the cache. The cache cannot ship in the package: VS Code's V8 is not the
 * build's Node's. So the first open of each build writes one, after the page has its state, and
 * it is named by the bundle's size and time, a new build's never mistaken for an old one's.
 * Free of the editor API: the startup benchmark loads the core this way in plain Node.
 */
import { mkdir, readdir, rm } from "node:fs/promises";
import { statSync } from "node:fs";
import { join } from "node:path";
import type * as Core from "../../core/controller/webview-session";
import { writeFileAtomic } from "../../core/storage/atomic-write";
import { compileBundle, readIfThere } from "../../core/util/cached-bundle";

export type CoreBundle = typeof Core;

export const CORE_BUNDLE = "core.js";

export interface LoadedCore {
  readonly core: CoreBundle;
  /** Whether a cache was used (false: none yet, or V8 refused it). */
  readonly cached: boolean;
  /** Writes the cache if it was missing or refused (what is compiled by now, so after the first state), and drops older builds' caches. */
  keepCache(): Promise<void>;
}

/** Loads `<dir>/core.js` with the cache for this build from `cacheFolder`, if there is one. */
export function loadCore(dir: string, cacheFolder: string): LoadedCore {
  const file = join(dir, CORE_BUNDLE);
  const { size, mtimeMs } = statSync(file);
  const name = `core-${size}-${Math.trunc(mtimeMs)}.cache`;
  const cacheFile = join(cacheFolder, name);
  const bundle = compileBundle(file, readIfThere(cacheFile));
  const core = bundle.load() as CoreBundle;
  const cached = bundle.cacheRejected === false;
  let kept = cached;
  return {
    core,
    cached,
    async keepCache() {
      if (kept) return;
      kept = true;
      await mkdir(cacheFolder, { recursive: true });
      await writeFileAtomic(cacheFile, bundle.createCache());
      const others = (await readdir(cacheFolder)).filter((other) => other !== name && /^core-\d+-\d+\.cache$/.test(other));
      await Promise.all(others.map((other) => rm(join(cacheFolder, other), { force: true })));
    },
  };
}
