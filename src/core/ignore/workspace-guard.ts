/**
 * The guard of a workspace of one folder or several: each folder's `.tandemignore`/`.clineignore`
 * governs its own files, secret-looking names are refused wherever they are, and a path is judged
 * as named and where it really lands (a link from one folder into another is judged by the other's
 * rules). One IgnoreController per folder, each watching its own ignore files.
 */
import * as path from "node:path";
import { IgnoreController, realOrSelf, type IgnoreControllerOptions } from "./ignore-controller";
import type { PathGuard } from "./path-guard";

export class WorkspaceGuard implements PathGuard {
  private constructor(private readonly controllers: readonly IgnoreController[]) {}

  /** The guard of `roots` (the primary first: relative paths resolve there), its ignore files loaded and watched. */
  static async create(roots: readonly string[], options: IgnoreControllerOptions = {}): Promise<WorkspaceGuard> {
    return new WorkspaceGuard(await Promise.all(roots.map((root) => IgnoreController.create(root, options))));
  }

  isIgnored(absolutePath: string): boolean {
    const markedFolder = absolutePath.endsWith("/") || absolutePath.endsWith(path.sep);
    const absolute = path.resolve(this.controllers[0]?.root ?? "/", absolutePath);
    if (this.controllers.some((c) => c.ignoresLocation(absolute, markedFolder))) return true;
    const real = realOrSelf(absolute);
    return real !== absolute && this.controllers.some((c) => c.ignoresLocation(real, markedFolder));
  }

  /** The ignore file (of the folder holding the path) whose rule refuses it, for the refusal's words. */
  ignoredBy(absolutePath: string): string | undefined {
    for (const controller of this.controllers) {
      const file = controller.ignoredBy(absolutePath);
      if (file !== undefined) return file;
    }
    return undefined;
  }

  /** Stops watching every folder's ignore files. */
  dispose(): void {
    for (const controller of this.controllers) controller.dispose();
  }
}
