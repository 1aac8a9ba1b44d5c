/**
 * The sandbox library's seccomp helper ships beside the bundle (`dist/vendor/seccomp/<arch>/
 * apply-seccomp`, copied by esbuild-options.mjs), and bubblewrap execs it inside the sandbox, so it
 * must be executable. The .vsix keeps its mode and VS Code's installer restores it (checked with
 * code-server 4.100.3), but a copy or unzip that drops modes leaves it 0644, and then every
 * sandboxed command fails with "Permission denied" while the library's dependency check passes.
 * Called once at start, before the library is initialized.
 */
import { accessSync, chmodSync, constants, copyFileSync, existsSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** process.arch → the library's vendor folder; other architectures have no helper. */
const VENDOR_ARCH: Readonly<Partial<Record<NodeJS.Architecture, string>>> = { x64: "x64", arm64: "arm64" };

/**
 * The executable apply-seccomp for this machine, beside the bundle in `bundleDir` (made executable
 * if it was not, or, where its folder cannot be changed, an executable copy in a private temp
 * folder). Undefined off Linux, on other architectures, or when the bundle has no helper (a run
 * from source: the library then finds its own in node_modules). Pass a path it returns to the
 * library as `seccomp.applyPath`: bubblewrap runs it inside the sandbox, so it must stay readable
 * there and must not be writable by sandboxed commands.
 */
export function ensureVendorExecutable(bundleDir: string): string | undefined {
  const arch = VENDOR_ARCH[process.arch];
  if (process.platform !== "linux" || !arch) return undefined;
  const helper = path.join(bundleDir, "vendor", "seccomp", arch, "apply-seccomp");
  if (!existsSync(helper)) return undefined;
  if (isExecutable(helper)) return helper;
  try {
    chmodSync(helper, statSync(helper).mode | 0o755);
    if (isExecutable(helper)) return helper;
  } catch {
    // A folder we may not change (installed by another user, a read-only mount): copy it below.
  }
  return executableCopy(helper);
}

function executableCopy(helper: string): string | undefined {
  try {
    const copy = path.join(mkdtempSync(path.join(tmpdir(), "tandem-seccomp-")), "apply-seccomp");
    copyFileSync(helper, copy);
    chmodSync(copy, 0o755);
    return isExecutable(copy) ? copy : undefined;
  } catch {
    return undefined;
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
