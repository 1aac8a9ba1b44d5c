import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadCore } from "./core-bundle";

let dir: string;
let cacheFolder: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tandem-core-bundle-"));
  cacheFolder = join(dir, "storage", "code-cache");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A stand-in for core.js: a CommonJS module with its own __filename and require. */
async function writeCore(build: number): Promise<void> {
  await writeFile(join(dir, "core.js"), `const { basename } = require("node:path"); exports.build = ${build}; exports.file = basename(__filename);`);
  // The build's time: two builds in the same millisecond would share a cache name.
  await utimes(join(dir, "core.js"), build, build);
}

describe("loadCore", () => {
  it("loads the bundle as require() would, and uses the cache the first load kept", async () => {
    await writeCore(1);
    const first = loadCore(dir, cacheFolder);
    expect(first.core).toMatchObject({ build: 1, file: "core.js" });
    expect(first.cached).toBe(false);
    await first.keepCache();
    expect(await readdir(cacheFolder)).toHaveLength(1);

    const second = loadCore(dir, cacheFolder);
    expect([second.core, second.cached]).toEqual([{ build: 1, file: "core.js" }, true]);
  });

  it("never takes another build's cache for this one's, and drops it once the new one is kept", async () => {
    await writeCore(1);
    await loadCore(dir, cacheFolder).keepCache();
    const [old] = await readdir(cacheFolder);
    await writeCore(2);
    const next = loadCore(dir, cacheFolder);
    expect([next.core, next.cached]).toEqual([{ build: 2, file: "core.js" }, false]);
    await next.keepCache();
    const kept = await readdir(cacheFolder);
    expect(kept).toHaveLength(1);
    expect(kept[0]).not.toBe(old);
  });
});
