/**
 * The files that hold the guard itself, or that run code when something else reads them: the
 * ignore files (editing one unprotects what it lists), `.git/` (hooks and config name programs),
 * `.vscode/` (tasks and settings run code), Tandem's own workspace folder `.tandem/` (rules,
 * hooks and MCP configuration as they land), and the hook, workflow and skill folders of
 * `.clinerules/` and `.claude/`. Writing, deleting or renaming one always asks the
 * person, even in YOLO, whether a file tool or a command does it. The one owner of that list.
 */
import * as path from "node:path";
import { isWithin, realLocation, toSlashes } from "../util/real-paths";
import { IGNORE_FILE_NAMES } from "./ignore-file-names";

/** Folders whose every file is a guard file, wherever they sit in the workspace (submodules have their own .git). */
export const GUARD_FOLDERS = [".git", ".vscode", ".tandem"] as const;

/**
 * Folders, from a workspace root, of what Tandem runs or follows as the person's own: hooks
 * (programs), workflows and skills (instructions). A model that edits one would write what
 * runs next with the person's trust. (`.tandem/`'s are guarded with it.)
 */
export const GUARD_SUBFOLDERS = [".clinerules/hooks", ".clinerules/workflows", ".clinerules/skills", ".claude/skills"] as const;

/**
 * Why changing `absolutePath` needs the person, or undefined when it does not. Pass the real path
 * (links resolved): a link is judged as its target. Paths outside the workspace are judged by the
 * "externally" switches, not here.
 */
export function guardFileReason(workspaceRoot: string, absolutePath: string): string | undefined {
  const rel = path.relative(workspaceRoot, absolutePath);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return undefined;
  const parts = rel.split(path.sep);
  const name = parts.at(-1) ?? "";
  if ((IGNORE_FILE_NAMES as readonly string[]).includes(name)) return `${name} decides what Tandem may not read`;
  const folder = parts.slice(0, -1).find((part) => (GUARD_FOLDERS as readonly string[]).includes(part));
  if (folder === ".git") return "files under .git/ (hooks, config) can make git run programs";
  if (folder === ".vscode") return "files under .vscode/ (tasks, settings) can make the editor run programs";
  if (folder === ".tandem") return "files under .tandem/ configure Tandem itself";
  const slashed = toSlashes(rel);
  const sub = GUARD_SUBFOLDERS.find((f) => slashed === f || slashed.startsWith(`${f}/`));
  if (sub?.endsWith("/hooks")) return `files under ${sub}/ are programs Tandem runs`;
  if (sub) return `files under ${sub}/ are instructions Tandem follows as yours`;
  // The folders themselves (rm -rf .git, mv .vscode elsewhere).
  if ((GUARD_FOLDERS as readonly string[]).includes(name)) return `${name}/ holds files that configure tools or run programs`;
  return undefined;
}

/**
 * For a change a file tool asks to make to `paths`: why the person must decide, whatever the
 * switches say, or undefined. Each path is judged as named and where it really lands, so a link
 * to a guard file is one too; and when one of a root's guard files or folders is itself a link
 * (`.clineignore -> .gitignore`, `.vscode -> config/editor`), its target is guarded as well.
 * Every workspace folder's guard files are guarded.
 */
export function guardedChangeNote(workspaceRoots: readonly string[], paths: readonly string[]): string | undefined {
  for (const workspaceRoot of workspaceRoots) {
    const note = guardedChangeNoteIn(path.resolve(workspaceRoot), paths);
    if (note !== undefined) return note;
  }
  return undefined;
}

function guardedChangeNoteIn(root: string, paths: readonly string[]): string | undefined {
  const views = guardViews(root);
  for (const named of paths) {
    for (const candidate of [named, realOrSelf(named)]) {
      for (const view of views) {
        if (!isWithin(view.from, candidate)) continue;
        const asNamed = path.join(view.to, path.relative(view.from, candidate));
        const reason = guardFileReason(root, asNamed);
        if (reason === undefined) continue;
        return `${toSlashes(path.relative(root, asNamed))} is one of the guard's own files: ${reason}. Tandem always asks before changing it, even in YOLO mode.`;
      }
    }
  }
  return undefined;
}

/** A path below `from` is judged as the same path below `to`. */
interface GuardView {
  readonly from: string;
  readonly to: string;
}

/** The root as given and as real, and each of its guard files and folders that a link puts elsewhere. */
function guardViews(root: string): GuardView[] {
  const realRoot = realOrSelf(root);
  const views: GuardView[] = [
    { from: root, to: root },
    { from: realRoot, to: root },
  ];
  for (const name of [...IGNORE_FILE_NAMES, ...GUARD_FOLDERS, ...GUARD_SUBFOLDERS]) {
    const real = realOrSelf(path.join(root, name));
    if (real !== path.join(realRoot, name)) views.push({ from: real, to: path.join(root, name) });
  }
  return views;
}

function realOrSelf(p: string): string {
  try {
    return realLocation(p);
  } catch {
    return path.resolve(p); // a link loop: nothing can be written through it
  }
}
