/**
 * Finds the hooks: an executable file named exactly after its point (`PreToolUse`, no
 * extension, as in Cline) in the global folder (`<Tandem storage>/hooks/`) or in a workspace
 * folder's `.clinerules/hooks/` or `.tandem/hooks/`. They run in that order: global first, then
 * each workspace root's `.clinerules/hooks/`, then its `.tandem/hooks/`. Links are followed, and
 * a hook is known by its real path (what trust is given to). A file that looks meant as a hook
 * but cannot be one (not executable, `PreToolUse.sh`) is a problem to say, never run.
 */
import { constants } from "node:fs";
import { access, readdir, realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import { HOOK_POINTS, isHookPoint, type HookPoint } from "./hook-points";

export type HookSource = "global" | "workspace";

export interface HookFile {
  readonly point: HookPoint;
  /** As found: `<folder>/<point>`. */
  readonly path: string;
  /** Where it really is (links resolved). */
  readonly realPath: string;
  readonly source: HookSource;
  /** A workspace hook's workspace folder (what trust is asked for). */
  readonly root?: string;
}

export interface HookFolder {
  readonly path: string;
  readonly source: HookSource;
  readonly root?: string;
}

export interface FoundHooks {
  readonly hooks: readonly HookFile[];
  /** One sentence per file that looks like a hook and is not one. */
  readonly problems: readonly string[];
}

/** The folders, in the order their hooks run. */
export function hookFolders(globalFolder: string | undefined, roots: readonly string[]): HookFolder[] {
  return [
    ...(globalFolder ? [{ path: globalFolder, source: "global" as const }] : []),
    ...roots.flatMap((root) => [
      { path: path.join(root, ".clinerules", "hooks"), source: "workspace" as const, root },
      { path: path.join(root, ".tandem", "hooks"), source: "workspace" as const, root },
    ]),
  ];
}

/** Every hook in the folders (all points), in running order. A missing folder has none. */
export async function findHooks(folders: readonly HookFolder[]): Promise<FoundHooks> {
  const hooks: HookFile[] = [];
  const problems: string[] = [];
  for (const folder of folders) {
    let names: string[];
    try {
      names = (await readdir(folder.path)).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(folder.path, name);
      if (!isHookPoint(name)) {
        const meant = HOOK_POINTS.find((point) => name.startsWith(`${point}.`));
        if (meant) problems.push(`${file} is not run: a hook is named exactly ${meant}, without an extension.`);
        continue;
      }
      const checked = await checkHookFile(file);
      if (typeof checked === "string") problems.push(`${file} is not run: ${checked}.`);
      else hooks.push({ point: name, path: file, realPath: checked.realPath, source: folder.source, ...(folder.root ? { root: folder.root } : {}) });
    }
  }
  return { hooks, problems };
}

async function checkHookFile(file: string): Promise<{ realPath: string } | string> {
  let real: string;
  try {
    real = await realpath(file);
  } catch {
    return "it is a link to nothing";
  }
  const info = await stat(real);
  if (!info.isFile()) return "it is not a file";
  try {
    await access(real, constants.X_OK);
  } catch {
    return `it is not executable (chmod +x ${JSON.stringify(file)})`;
  }
  return { realPath: real };
}
