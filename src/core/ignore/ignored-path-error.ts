/** The one wording tools use when they refuse an ignored path, so the model learns why. */
import { ToolError, type PathGuard } from "../task/tools/types";
import { looksLikeSecretFile } from "./secret-files";

export function ignoredPathError(displayPath: string, absolutePath: string): ToolError {
  if (looksLikeSecretFile(absolutePath)) {
    return new ToolError(
      "not_allowed",
      `${displayPath} looks like a secret file (keys, tokens, .env), so tools may not touch it unless the person allows secret files.`,
    );
  }
  return new ToolError("not_allowed", `${displayPath} is ignored by .tandemignore, so tools may not touch it.`);
}

/** Throws the refusal when the guard says no. Folders are marked so folder-only rules apply. */
export function assertNotIgnored(guard: PathGuard, absolutePath: string, displayPath: string, isFolder = false): void {
  if (guard.isIgnored(isFolder ? withTrailingSlash(absolutePath) : absolutePath)) throw ignoredPathError(displayPath, absolutePath);
}

export function withTrailingSlash(absolutePath: string): string {
  return absolutePath.endsWith("/") ? absolutePath : `${absolutePath}/`;
}
