/**
 * The editor's files as the model may see them: named as the model writes them (relative in the
 * primary folder, `name/…` in another), each named once, and only files the ignore guard lets
 * through, judged where they really are (a link into an ignored folder, or out of every workspace
 * folder, is left out like its target).
 */
import * as path from "node:path";
import type { PathGuard } from "../ignore/path-guard";
import { realLocation } from "../util/real-paths";
import type { WorkspaceRoots } from "../util/workspace-roots";

export class EditorFiles {
  constructor(
    private readonly roots: WorkspaceRoots,
    private readonly guard: PathGuard,
  ) {}

  /** The files that may be named, as the model writes them, in the given order. */
  shown(files: readonly string[]): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const file of files) {
      const named = this.named(file);
      if (named === undefined || seen.has(named)) continue;
      seen.add(named);
      out.push(named);
    }
    return out;
  }

  private named(file: string): string | undefined {
    const absolute = path.resolve(this.roots.primary.path, file);
    const real = realOrUndefined(absolute);
    // A path whose real place cannot be told (a link loop) is not named at all.
    if (real === undefined || !this.roots.contains(real)) return undefined;
    if (this.guard.isIgnored(absolute) || this.guard.isIgnored(real)) return undefined;
    const named = this.roots.holding(absolute) ? this.roots.shown(absolute) : this.roots.shown(real);
    return named === "." ? undefined : named;
  }
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realLocation(p);
  } catch {
    return undefined;
  }
}
