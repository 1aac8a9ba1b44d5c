/**
 * The editor's files as the model may see them: workspace-relative, each named once, and only
 * files the ignore guard lets through, judged where they really are (a link into an ignored
 * folder, or out of the workspace, is left out like its target).
 */
import * as path from "node:path";
import type { PathGuard } from "../ignore/path-guard";
import { isWithin, realLocation, toSlashes } from "../util/real-paths";

export class EditorFiles {
  private readonly realRoot: string;

  constructor(
    private readonly root: string,
    private readonly guard: PathGuard,
  ) {
    this.realRoot = realOrUndefined(root) ?? root;
  }

  /** The files that may be named, workspace-relative with forward slashes, in the given order. */
  shown(files: readonly string[]): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const file of files) {
      const relative = this.relative(file);
      if (relative === undefined || seen.has(relative)) continue;
      seen.add(relative);
      out.push(relative);
    }
    return out;
  }

  private relative(file: string): string | undefined {
    const absolute = path.resolve(this.root, file);
    const real = realOrUndefined(absolute);
    // A path whose real place cannot be told (a link loop) is not named at all.
    if (real === undefined || !isWithin(this.realRoot, real)) return undefined;
    if (this.guard.isIgnored(absolute) || this.guard.isIgnored(real)) return undefined;
    const named = isWithin(this.root, absolute) ? path.relative(this.root, absolute) : path.relative(this.realRoot, real);
    return named === "" ? undefined : toSlashes(named);
  }
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realLocation(p);
  } catch {
    return undefined;
  }
}
