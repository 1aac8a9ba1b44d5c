import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureVendorExecutable } from "./vendor-files";

const arch = process.arch === "x64" || process.arch === "arm64" ? process.arch : undefined;
const supported = process.platform === "linux" && arch !== undefined;

let bundle: string;

beforeEach(async () => {
  bundle = await mkdtemp(join(tmpdir(), "tandem-vendor-"));
});

afterEach(async () => {
  await rm(bundle, { recursive: true, force: true });
});

async function helper(mode: number): Promise<string> {
  const file = join(bundle, "vendor", "seccomp", arch ?? "x64", "apply-seccomp");
  await mkdir(join(file, ".."), { recursive: true });
  await writeFile(file, "#!/bin/sh\n");
  await chmod(file, mode);
  return file;
}

describe("ensureVendorExecutable", () => {
  it.runIf(supported)("returns the helper beside the bundle when it is executable", async () => {
    const file = await helper(0o755);
    expect(ensureVendorExecutable(bundle)).toBe(file);
  });

  it.runIf(supported)("gives the helper its exec bit back when an unzip or copy dropped it", async () => {
    const file = await helper(0o644);
    expect(ensureVendorExecutable(bundle)).toBe(file);
    expect((await stat(file)).mode & 0o777).toBe(0o755);
  });

  it("returns undefined when the bundle has no helper (a run from source)", () => {
    expect(ensureVendorExecutable(bundle)).toBeUndefined();
  });

  it.runIf(process.platform !== "linux")("returns undefined off Linux, where no seccomp helper is used", async () => {
    await helper(0o755);
    expect(ensureVendorExecutable(bundle)).toBeUndefined();
  });
});
