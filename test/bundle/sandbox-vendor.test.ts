/**
 * Ship what is tested: the sandbox library's helpers (apply-seccomp, the JVM proxy agent) are
 * copied beside the production bundles with their modes, and the library, bundled with the same
 * options, finds them there and runs a command confined. A build that leaves them out, or loses
 * the exec bit, makes every sandboxed command fail with "Permission denied".
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleOptions, REPO_ROOT, SANDBOX_VENDOR_FILES } from "../../esbuild-options.mjs";
import { ensureVendorExecutable } from "../../src/core/sandbox/vendor-files";
import { copyOfBundles } from "../support/bundles";

const run = promisify(execFile);
const library = join(REPO_ROOT, "node_modules/@anthropic-ai/sandbox-runtime");
const linuxArch = process.platform === "linux" && (process.arch === "x64" || process.arch === "arm64") ? process.arch : undefined;

let dir: string;
let bundle: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tandem-sandbox-vendor-"));
  bundle = join(dir, "dist");
  // Its own copy: the probe is built beside the bundles and a test changes the helpers' modes.
  await copyOfBundles(bundle);
  const probe = bundleOptions({ outdir: bundle, production: true });
  await esbuild.build({ ...probe, entryPoints: [{ in: "test/bundle/sandbox-probe.ts", out: "sandbox-probe" }], logLevel: "silent" });
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Probe {
  readonly dependencies: { readonly errors: readonly string[] };
  readonly seccomp?: string;
  readonly javaAgent?: string;
  readonly code?: number | null;
  readonly output?: string;
}

async function runProbe(...args: string[]): Promise<Probe> {
  const workspace = await mkdtemp(join(dir, "ws-"));
  const { stdout } = await run(process.execPath, [join(bundle, "sandbox-probe.js"), workspace, ...args], { timeout: 30_000 });
  return JSON.parse(stdout) as Probe;
}

describe("the sandbox's helper files in the production build", () => {
  it("are copied beside the bundles, byte for byte, with their modes", async () => {
    for (const { file, mode } of SANDBOX_VENDOR_FILES) {
      const shipped = join(bundle, file);
      expect((await stat(shipped)).mode & 0o777, file).toBe(mode);
      expect((await readFile(shipped)).equals(await readFile(join(library, file))), file).toBe(true);
    }
    expect(SANDBOX_VENDOR_FILES.map((f) => f.file)).toEqual(
      expect.arrayContaining(["vendor/seccomp/x64/apply-seccomp", "vendor/seccomp/arm64/apply-seccomp", "vendor/java-proxy-agent/srt-proxy-agent.jar"]),
    );
  });

  it("go with bundles that carry the library itself: the .vsix and dist/ ship no node_modules", async () => {
    for (const file of ["core.js", "cli-main.js"]) {
      expect(await readFile(join(bundle, file), "utf8"), file).not.toMatch(/require\(["']@anthropic-ai\/sandbox-runtime["']\)/);
    }
    expect(await readFile(join(bundle, "cli-main.js"), "utf8")).toContain("apply-seccomp");
  });

  it("leave the optional Windows SDK out of the bundle instead of failing the build on it", async () => {
    expect(bundleOptions({ outdir: bundle, production: true }).external).toContain("@microsoft/mxc-sdk");
  });

  it.runIf(linuxArch)("are found by the bundled library, which runs a command confined with them", async () => {
    const probe = await runProbe();
    expect(probe.dependencies.errors, "install the sandbox's packages: apt-get install bubblewrap socat").toEqual([]);
    expect(probe.seccomp).toBe(join(bundle, "vendor/seccomp", linuxArch!, "apply-seccomp"));
    expect(probe.javaAgent).toBe(join(bundle, "vendor/java-proxy-agent/srt-proxy-agent.jar"));
    expect(probe).toMatchObject({ code: 0, output: "inside\n" });
  });

  it.runIf(linuxArch)("run again once ensureVendorExecutable has restored a lost exec bit", async () => {
    const helper = join(bundle, "vendor/seccomp", linuxArch!, "apply-seccomp");
    await chmod(helper, 0o644);
    try {
      const broken = await runProbe();
      expect(broken.code).not.toBe(0);
      expect(broken.output).toMatch(/apply-seccomp: Permission denied/);
      expect(ensureVendorExecutable(bundle)).toBe(helper);
      expect((await stat(helper)).mode & 0o777).toBe(0o755);
      expect(await runProbe(helper)).toMatchObject({ code: 0, output: "inside\n" });
    } finally {
      await chmod(helper, 0o755);
    }
  });

  it("gives no helper for a bundle folder without one (a run from source)", async () => {
    const empty = join(dir, "no-vendor");
    await mkdir(empty, { recursive: true });
    expect(ensureVendorExecutable(empty)).toBeUndefined();
  });
});
