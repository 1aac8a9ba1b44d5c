/**
 * Keeps the shadow repository small on disk as rounds go by. A round's save writes its blobs and
 * trees as loose objects, each a file that takes a whole disk block however small it is (a
 * round's fifty-odd trees alone fill 200 KB); once there are about LOOSE_LIMIT of them, they go
 * into a pack. Packs (one per bulk add, one per such packing) are merged into one past PACK_LIMIT.
 * Cheap because blobs are never delta-compressed here (core.bigFileThreshold, shadow-setup.ts):
 * packing reuses their compressed bytes. Automatic gc stays off: it would run when git likes.
 */
import { readdir } from "node:fs/promises";
import * as path from "node:path";
import type { ShadowGit } from "./git-process";

const LOOSE_LIMIT = 1_000;
const PACK_LIMIT = 20;
/** Loose objects are counted in this many of the 256 fan-out folders and scaled up, as git's gc --auto does with one. */
const SAMPLED_FOLDERS = 16;

export async function packIfNeeded(git: ShadowGit): Promise<void> {
  const objects = path.join(git.paths.gitDir, "objects");
  if ((await estimateLooseObjects(objects)) >= LOOSE_LIMIT) await git.run(["repack", "-d", "-q"]);
  const packs = (await namesIn(path.join(objects, "pack"))).filter((name) => name.endsWith(".pack")).length;
  if (packs > PACK_LIMIT) await git.run(["repack", "-a", "-d", "-q"]);
}

async function estimateLooseObjects(objects: string): Promise<number> {
  let sampled = 0;
  for (let i = 0; i < SAMPLED_FOLDERS; i++) {
    sampled += (await namesIn(path.join(objects, i.toString(16).padStart(2, "0")))).filter((name) => /^[0-9a-f]{38}$/.test(name)).length;
  }
  return sampled * (256 / SAMPLED_FOLDERS);
}

async function namesIn(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}
