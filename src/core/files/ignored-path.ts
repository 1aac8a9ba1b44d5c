/** The one wording tools use when they refuse an ignored path, so the model learns why. */
import type { PathGuard } from "../ignore/path-guard";
import { looksLikeSecretFile } from "../ignore/secret-files";
import type { ResolvedToolPath } from "./paths";
import { ToolError } from "./tool-error";

/**
 * `absolutePath` is what is ignored; `linkedTo` (its display form) is given when the path the
 * model named only leads there through a symbolic link.
 */
export function ignoredPathError(displayPath: string, absolutePath: string, linkedTo?: string, ruleFile?: string): ToolError {
  const subject = linkedTo === undefined ? displayPath : `${displayPath} leads through a symbolic link to ${linkedTo}, which`;
  if (looksLikeSecretFile(absolutePath)) {
    return new ToolError(
      "not_allowed",
      `${subject} looks like a secret file (keys, tokens, .env), so tools may not touch it unless the person allows secret files.`,
    );
  }
  const by = ruleFile ?? "the workspace's ignore rules (.tandemignore, .clineignore)";
  return new ToolError("not_allowed", `${subject} is ignored by ${by}, so tools may not touch it.`);
}

/**
 * Throws the refusal when the guard says no to the path as named or to where it really lands
 * (a link is judged as its target). Folders are marked so folder-only rules apply.
 */
export function assertNotIgnored(guard: PathGuard, target: ResolvedToolPath, isFolder = false): void {
  const refusal = ignoredRefusal(guard, target, isFolder);
  if (refusal) throw refusal;
}

/** The refusal assertNotIgnored would throw, or undefined when tools may touch the path. */
export function ignoredRefusal(guard: PathGuard, target: ResolvedToolPath, isFolder = false): ToolError | undefined {
  const mark = (p: string) => (isFolder ? withTrailingSlash(p) : p);
  if (target.real !== target.absolute && guard.isIgnored(mark(target.real))) return ignoredPathError(target.relative, target.real, target.realRelative, guard.ignoredBy?.(mark(target.real)));
  return guard.isIgnored(mark(target.absolute)) ? ignoredPathError(target.relative, target.absolute, undefined, guard.ignoredBy?.(mark(target.absolute))) : undefined;
}

export function withTrailingSlash(absolutePath: string): string {
  return absolutePath.endsWith("/") ? absolutePath : `${absolutePath}/`;
}
