/**
 * Keeps the shadow repository small on disk as rounds go by. A round's save writes its blobs and
 * trees as loose objects, each a file that takes a whole disk block however small it is (a
 * round's fifty-odd trees alone fill 200 KB); once there are about LOOSE_LIMIT of them, they go
 * into a pack. Packs (one per bulk add, one per such packing) are merged into one past PACK_LIMIT.
 * Light on the processor because blobs are never delta-compressed here (core.bigFileThreshold,
 * shadow-setup.ts), but the new pack is flushed to disk, which can take a busy disk half a second:
 * so the store packs after a save has returned, not within it (checkpoint-store.ts). Automatic gc
 * stays off: it would run when git likes.
 */
import * as path from "node:path";
import type { ShadowGit } from "./git-process";
import { namesIn } from "./fs-probes";

const LOOSE_LIMIT = 1_000;
const PACK_LIMIT = 20;
/** Loose objects are counted in this many of the 256 fan-out folders and scaled up, as git's gc --auto does with one. */
const SAMPLED_FOLDERS = 16;

/** Whether the store has enough loose objects or packs to be worth packing now (a few readdirs). */
export async function packingDue(gitDir: string): Promise<boolean> {
  const objects = path.join(gitDir, "objects");
  return (await estimateLooseObjects(objects)) >= LOOSE_LIMIT || (await countPacks(objects)) > PACK_LIMIT;
}

/** Packs the loose objects, and merges the packs when there are too many. */
export async function packObjects(git: ShadowGit): Promise<void> {
  const objects = path.join(git.paths.gitDir, "objects");
  if ((await estimateLooseObjects(objects)) >= LOOSE_LIMIT) await git.run(["repack", "-d", "-q"]);
  if ((await countPacks(objects)) > PACK_LIMIT) await git.run(["repack", "-a", "-d", "-q"]);
}

async function countPacks(objects: string): Promise<number> {
  return (await namesIn(path.join(objects, "pack"))).filter((name) => name.endsWith(".pack")).length;
}

async function estimateLooseObjects(objects: string): Promise<number> {
  let sampled = 0;
  for (let i = 0; i < SAMPLED_FOLDERS; i++) {
    sampled += (await namesIn(path.join(objects, i.toString(16).padStart(2, "0")))).filter((name) => /^[0-9a-f]{38}$/.test(name)).length;
  }
  return sampled * (256 / SAMPLED_FOLDERS);
}
