/**
 * The workspace's folders as one set, the one owner of which folder a path belongs to and how a
 * path is shown to the model. The first folder is the primary: commands start there and a plain
 * relative path resolves there; every other folder is written by its name (`frontend/src/a.ts`).
 * Membership is judged on real paths (links followed): a place inside any folder's real path is
 * in the workspace, so a link from one folder into another stays inside, and one out of all of
 * them leads outside. Resolving what the model wrote is `core/files/paths.ts`.
 */
import { lstatSync } from "node:fs";
import * as path from "node:path";
import type { WorkspaceRoot } from "../../host/bridge";
import { UNSAFE_CHARACTER } from "./one-line-name";
import { isWithin, realLocation, toSlashes } from "./real-paths";

/** A folder of the workspace with where it really is. */
export interface Root extends WorkspaceRoot {
  /** Its real path (links followed); judged against for membership. */
  readonly real: string;
}

/** How long `shown` trusts its last look at whether the primary shadows a folder's name. */
const SHADOW_LOOK_MS = 1_000;

export class WorkspaceRoots {
  /** `shown`'s recent looks (a listing or the @-menu's index shows thousands of paths at once). */
  private readonly shadowLooks = new Map<Root, { readonly at: number; readonly shadowed: boolean }>();

  private constructor(readonly list: readonly Root[]) {}

  /** The set of `roots` (never empty), in their order: the first is the primary. */
  static of(roots: readonly WorkspaceRoot[]): WorkspaceRoots {
    if (roots.length === 0) throw new Error("A workspace needs at least one folder.");
    return new WorkspaceRoots(roots.map((root) => {
      const absolute = path.resolve(root.path);
      return { name: root.name, path: absolute, real: realOrSelf(absolute) };
    }));
  }

  /** A workspace of one folder, named after it. */
  static single(folder: string): WorkspaceRoots {
    return WorkspaceRoots.of(nameRoots([{ path: folder }]));
  }

  get primary(): Root {
    return this.list[0] as Root;
  }

  /** More than one folder. */
  get many(): boolean {
    return this.list.length > 1;
  }

  /** The folders' paths, the primary first (the sandbox's writable folders, the walks). */
  get paths(): string[] {
    return this.list.map((root) => root.path);
  }

  /** Names the set: equal keys, equal folders in the same order (a cache's key). */
  get key(): string {
    return this.list.map((root) => `${root.name}\0${root.path}`).join("\0\0");
  }

  /** The folder, other than the primary, that the model means by `name`. */
  named(name: string): Root | undefined {
    return this.list.find((root, index) => index > 0 && root.name === name);
  }

  /** The innermost folder holding `absolute` as named, else holding it as a real location; undefined outside. */
  holding(absolute: string): Root | undefined {
    return innermost(this.list.filter((root) => below(root.path, absolute) !== undefined), (root) => root.path) ?? this.holdingReal(absolute);
  }

  /** The innermost folder whose real path holds the real location `real`. */
  holdingReal(real: string): Root | undefined {
    return innermost(this.list.filter((root) => below(root.real, real) !== undefined), (root) => root.real);
  }

  /** True when the real location `real` lies in one of the folders. */
  contains(real: string): boolean {
    return this.list.some((root) => isWithin(root.real, real));
  }

  /** Where .gitignore rules and searches start for `absolute`: its folder, or the primary outside every folder. */
  baseOf(absolute: string): string {
    return this.holding(absolute)?.path ?? this.primary.path;
  }

  /**
   * True when the primary folder holds an entry named like `root` that is not `root` itself: then
   * `name/…` could mean either, and the model must write which (paths.ts says how).
   */
  shadowed(root: Root): boolean {
    if (root === this.primary) return false;
    const entry = path.join(this.primary.path, root.name);
    // Asked for every path shown (listings, the @-menu's index): no exception for the usual "nothing there".
    if (!lstatSync(entry, { throwIfNoEntry: false })) return false;
    return realOrSelf(entry) !== root.real;
  }

  /** `shadowed`, looked at again at most every SHADOW_LOOK_MS: a path shown just stale is still resolved afresh (paths.ts). */
  private recentlyShadowed(root: Root): boolean {
    const now = Date.now();
    const look = this.shadowLooks.get(root);
    if (look && now - look.at < SHADOW_LOOK_MS) return look.shadowed;
    const shadowed = this.shadowed(root);
    this.shadowLooks.set(root, { at: now, shadowed });
    return shadowed;
  }

  /**
   * `absolute` as the model reads it and can write it again: relative in the primary folder,
   * `name/relative` in another, absolute outside every folder (or in a folder whose name the
   * primary folder shadows).
   */
  shown(absolute: string): string {
    const root = this.holding(absolute);
    if (!root) return absolute;
    const relative = toSlashes(below(root.path, absolute) ?? below(root.real, absolute) ?? "");
    if (root === this.primary) return relative || ".";
    if (this.recentlyShadowed(root)) return absolute;
    return relative ? `${root.name}/${relative}` : root.name;
  }
}

/**
 * Names for folders (`name`: the editor's, else the folder's own), each one path segment and
 * unique: a clash takes `-2`, `-3`, … in the folders' order, so the same folders get the same names.
 */
export function nameRoots(folders: readonly { readonly path: string; readonly name?: string }[]): WorkspaceRoot[] {
  const taken = new Set<string>();
  return folders.map((folder) => {
    const absolute = path.resolve(folder.path);
    const base = segmentName(folder.name?.trim() || path.basename(absolute));
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    taken.add(name.toLowerCase());
    return { name, path: absolute };
  });
}

/** A name the model can write as the first segment of a path, on one line (it goes into the prompt). */
function segmentName(name: string): string {
  const segment = name.replace(/[/\\]/g, "-").replace(new RegExp(UNSAFE_CHARACTER.source, "g"), "-");
  return segment === "" || segment === "." || segment === ".." ? "root" : segment;
}

/**
 * `child` relative to `parent` ("" for `parent` itself) when it lies in it, else undefined. Both
 * are absolute and normalized (roots are resolved; tools resolve what they name), so a prefix
 * check does: it is asked for every path a listing or the @-menu's index shows.
 */
function below(parent: string, child: string): string | undefined {
  if (child === parent) return "";
  const prefix = parent.endsWith(path.sep) ? parent : `${parent}${path.sep}`;
  return child.startsWith(prefix) ? child.slice(prefix.length) : undefined;
}

function innermost(roots: readonly Root[], by: (root: Root) => string): Root | undefined {
  return roots.reduce<Root | undefined>((best, root) => (best === undefined || by(root).length > by(best).length ? root : best), undefined);
}

function realOrSelf(p: string): string {
  try {
    return realLocation(p);
  } catch {
    return p; // a link loop: nothing can be read through it, so it is judged as named
  }
}
