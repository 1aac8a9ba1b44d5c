import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "./atomic-write";

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), "tandem-atomic-"))));
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("writeFileAtomic", () => {
  it("writes strings and bytes and leaves no temp file behind", async () => {
    await writeFileAtomic(path.join(dir, "a.json"), '{"a":1}');
    await writeFileAtomic(path.join(dir, "b.bin"), new Uint8Array([0, 1, 2, 255]));
    expect(await readFile(path.join(dir, "a.json"), "utf8")).toBe('{"a":1}');
    expect([...(await readFile(path.join(dir, "b.bin")))]).toEqual([0, 1, 2, 255]);
    expect((await readdir(dir)).sort()).toEqual(["a.json", "b.bin"]);
  });

  it("replaces an existing file whole and keeps its permissions", async () => {
    const file = path.join(dir, "run.sh");
    await writeFile(file, "#!/bin/sh\necho old with a much longer body than the new one\n");
    await chmod(file, 0o754);
    await writeFileAtomic(file, "#!/bin/sh\necho new\n");
    expect(await readFile(file, "utf8")).toBe("#!/bin/sh\necho new\n");
    if (process.platform !== "win32") expect((await stat(file)).mode & 0o777).toBe(0o754);
    expect(await readdir(dir)).toEqual(["run.sh"]);
  });

  it("writes through a symlink instead of replacing it", async () => {
    await mkdir(path.join(dir, "real"));
    await writeFile(path.join(dir, "real", "t.txt"), "old");
    await symlink(path.join(dir, "real", "t.txt"), path.join(dir, "link.txt"));
    await writeFileAtomic(path.join(dir, "link.txt"), "new");
    expect((await lstat(path.join(dir, "link.txt"))).isSymbolicLink()).toBe(true);
    expect(await readlink(path.join(dir, "link.txt"))).toBe(path.join(dir, "real", "t.txt"));
    expect(await readFile(path.join(dir, "real", "t.txt"), "utf8")).toBe("new");
  });

  it("fails clearly when the folder is missing", async () => {
    await expect(writeFileAtomic(path.join(dir, "missing", "x.txt"), "x")).rejects.toMatchObject({ code: "ENOENT" });
    expect(await readdir(dir)).toEqual([]);
  });

  it("removes its temp file when the final rename fails", async () => {
    await mkdir(path.join(dir, "target"));
    await writeFile(path.join(dir, "target", "inside"), "x");
    await expect(writeFileAtomic(path.join(dir, "target"), "data")).rejects.toThrow();
    expect(await readdir(dir)).toEqual(["target"]);
  });
});
