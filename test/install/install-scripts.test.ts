/**
 * npm (11.16 and later) warns at install about dependencies whose install scripts nobody reviewed,
 * and npm 12 skips them. Every dependency in the lockfile that has an install script carries a
 * decision in package.json's allowScripts, so a fresh `npm ci` prints no such warning and a new
 * dependency with a script is a choice someone made, not a surprise.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8")) as Record<string, unknown>;

/** The package name of a lockfile key such as "node_modules/a/node_modules/@scope/b". */
function nameOf(lockKey: string): string {
  return lockKey.slice(lockKey.lastIndexOf("node_modules/") + "node_modules/".length);
}

describe("install scripts", () => {
  const manifest = read("package.json") as { allowScripts?: Record<string, boolean> };
  const lock = read("package-lock.json") as { packages: Record<string, { hasInstallScript?: boolean }> };
  const withScripts = Object.entries(lock.packages)
    .filter(([key, entry]) => key !== "" && entry.hasInstallScript)
    .map(([key]) => nameOf(key));

  it("every dependency with an install script has a decision in allowScripts", () => {
    const decided = new Set(Object.keys(manifest.allowScripts ?? {}).map((key) => key.replace(/(?<=.)@[^@]*$/, "")));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => !decided.has(name))).toEqual([]);
  });

  it("names no package the lockfile does not hold (a stale decision)", () => {
    const held = new Set(withScripts);
    const stale = Object.keys(manifest.allowScripts ?? {})
      .map((key) => key.replace(/(?<=.)@[^@]*$/, ""))
      .filter((name) => !held.has(name));
    expect(stale).toEqual([]);
  });
});
