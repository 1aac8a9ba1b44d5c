/**
 * Where a program is, found in this process. The bundles use it in place of the sandbox
 * library's own lookup (esbuild-options.mjs swaps it in), which runs `which` under a 1 s limit
 * at every start and for every command: on a loaded machine the limit passed, and the library
 * called an installed socat "not installed" and the sandbox off. Same answers as `which`: a name
 * with a slash is taken as given, a bare one is looked for along PATH, and only an executable
 * file counts. Empty PATH entries are skipped: they would mean the current folder.
 */
import { accessSync, constants, statSync } from "node:fs";
import * as path from "node:path";

export function whichSync(bin: string, searchPath: string | undefined = process.env.PATH): string | null {
  if (bin === "") return null;
  if (bin.includes("/")) return isExecutableFile(bin) ? bin : null;
  for (const folder of (searchPath ?? "").split(path.delimiter)) {
    if (folder === "") continue;
    const candidate = path.join(folder, bin);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
