/**
 * Reading checkpoints back: which files differ between two trees (`git diff-tree`, no rename
 * detection, so every path stands for itself), and the blobs' bytes (`git cat-file --batch`, many
 * at once). Both work on git's object ids and modes, which a restore needs as much as a diff view.
 */
import type { ShadowGit } from "./git-process";

export interface TreeEntry {
  /** 100644 a file, 100755 an executable one, 120000 a symbolic link. */
  readonly mode: string;
  readonly oid: string;
}

export interface TreeDifference {
  readonly path: string;
  readonly status: "added" | "modified" | "deleted";
  /** The entry in the first tree (absent when added). */
  readonly before: TreeEntry | undefined;
  /** The entry in the second tree (absent when deleted). */
  readonly after: TreeEntry | undefined;
}

/** A submodule's commit: never written by the store (nested repositories are kept out), skipped if met. */
const GITLINK = "160000";
const BLOBS_PER_CALL = 256;

export async function diffTrees(git: ShadowGit, from: string, to: string): Promise<TreeDifference[]> {
  if (from === to) return [];
  const output = await git.run(["diff-tree", "-r", "-z", "--no-renames", "--raw", from, to]);
  const fields = output.split("\0");
  const differences: TreeDifference[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [modeBefore, modeAfter, oidBefore, oidAfter, letter] = (fields[i] ?? "").replace(/^:/, "").split(" ");
    const path = fields[i + 1] ?? "";
    if (modeBefore === GITLINK || modeAfter === GITLINK || !letter) continue;
    const before = letter === "A" ? undefined : { mode: modeBefore as string, oid: oidBefore as string };
    const after = letter === "D" ? undefined : { mode: modeAfter as string, oid: oidAfter as string };
    differences.push({ path, status: letter === "A" ? "added" : letter === "D" ? "deleted" : "modified", before, after });
  }
  return differences;
}

/** The bytes of each blob, by object id. */
export async function readBlobs(git: ShadowGit, oids: Iterable<string>): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(oids)];
  const blobs = new Map<string, Buffer>();
  for (let i = 0; i < wanted.length; i += BLOBS_PER_CALL) {
    const batch = wanted.slice(i, i + BLOBS_PER_CALL);
    const output = await git.catFile(["--batch"], { input: `${batch.join("\n")}\n` });
    parseBatch(output, blobs);
  }
  const missing = wanted.filter((oid) => !blobs.has(oid));
  if (missing.length > 0) throw new Error(`the store lacks ${missing.length} file version(s), e.g. ${missing[0]}`);
  return blobs;
}

/** `cat-file --batch` output: for each object "<oid> <type> <size>\n<bytes>\n", or "<oid> missing\n". */
function parseBatch(output: Buffer, into: Map<string, Buffer>): void {
  let at = 0;
  while (at < output.length) {
    const lineEnd = output.indexOf(0x0a, at);
    if (lineEnd < 0) break;
    const [oid, type, size] = output.subarray(at, lineEnd).toString("utf8").split(" ");
    at = lineEnd + 1;
    if (type === "missing" || size === undefined) continue;
    const length = Number(size);
    into.set(oid as string, Buffer.from(output.subarray(at, at + length)));
    at += length + 1;
  }
}

/** Git's own test: a NUL byte in the first 8000 bytes makes a file binary. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}
