import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { whichSync } from "./program-lookup";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tandem-which-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function program(folder: string, name: string, mode: number): Promise<string> {
  await mkdir(join(dir, folder), { recursive: true });
  const file = join(dir, folder, name);
  await writeFile(file, "#!/bin/sh\n");
  await chmod(file, mode);
  return file;
}

describe("whichSync", () => {
  it("finds the first executable file along PATH, skipping folders and files without the exec bit", async () => {
    await program("a", "tool", 0o644);
    await mkdir(join(dir, "b", "tool"), { recursive: true });
    const wanted = await program("c", "tool", 0o755);
    await program("d", "tool", 0o755);
    const searchPath = ["a", "b", "c", "d"].map((f) => join(dir, f)).join(delimiter);
    expect(whichSync("tool", searchPath)).toBe(wanted);
  });

  it("returns null when no PATH entry has it, and for an empty name", async () => {
    await program("a", "other", 0o755);
    expect(whichSync("tool", join(dir, "a"))).toBeNull();
    expect(whichSync("tool", undefined)).toBeNull();
    expect(whichSync("", join(dir, "a"))).toBeNull();
  });

  it("takes a name with a slash as given, and follows a link to an executable", async () => {
    const file = await program("a", "tool", 0o755);
    const link = join(dir, "link");
    await symlink(file, link);
    expect(whichSync(file, "")).toBe(file);
    expect(whichSync(link, "")).toBe(link);
    expect(whichSync(join(dir, "a", "missing"), "")).toBeNull();
    expect(whichSync(join(dir, "a"), "")).toBeNull();
  });

  it("finds the shell the sandbox runs commands with on this machine", () => {
    expect(whichSync("/bin/sh")).toBe("/bin/sh");
    expect(whichSync("sh")).toMatch(/\/sh$/);
  });
});
