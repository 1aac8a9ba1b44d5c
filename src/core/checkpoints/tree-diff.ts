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
  return parseRaw(await git.run(["diff-tree", "-r", "-z", "--no-renames", "--raw", from, to]));
}

/** The differences between a tree and the index, either way round, without writing the index's tree first. */
export async function diffIndex(git: ShadowGit, tree: string, direction: "tree to index" | "index to tree"): Promise<TreeDifference[]> {
  return parseRaw(await git.run(["diff-index", "--cached", "-z", "--no-renames", "--raw", ...(direction === "index to tree" ? ["-R"] : []), tree]));
}

/** `--raw -z` output: ":<mode> <mode> <oid> <oid> <letter>\0<path>\0" per path. */
function parseRaw(output: string): TreeDifference[] {
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

/**
 * Streams blobs from one `cat-file --batch` to `each`, in the order of `oids` (repeats allowed):
 * at most `inFlight` calls pending, with git's output held meanwhile, so memory stays bounded
 * however many blobs there are. Nothing is handed over before `startAfter` resolves. After a
 * failure (of `each`, of git, a missing blob) git is stopped, the calls under way are waited
 * for, and the failure is thrown.
 */
export async function forEachBlob(git: ShadowGit, oids: readonly string[], options: { inFlight: number; startAfter: Promise<unknown> }, each: (index: number, bytes: Buffer) => Promise<void>): Promise<void> {
  if (oids.length === 0) {
    await options.startAfter;
    return;
  }
  const cat = git.start(["cat-file", "--batch"], { input: `${oids.join("\n")}\n` });
  const output = new BatchOutput();
  await new Promise<void>((resolve, reject) => {
    let open = false;
    let next = 0;
    let running = 0;
    let exited = false;
    let failure: { error: unknown } | undefined;
    const fail = (error: unknown) => {
      if (failure !== undefined) return;
      failure = { error };
      cat.stdout.destroy();
      cat.stop();
    };
    const pump = () => {
      while (open && failure === undefined && running < options.inFlight && next < oids.length) {
        const object = output.next();
        if (object === undefined) break;
        if (!Buffer.isBuffer(object)) {
          fail(new Error(`the store lacks the file version ${object.missing}`));
          break;
        }
        const index = next++;
        running++;
        void each(index, object)
          .catch(fail)
          .finally(() => {
            running--;
            pump();
          });
      }
      if (failure === undefined && open && running < options.inFlight) cat.stdout.resume();
      else cat.stdout.pause();
      if (running > 0 || !exited || (!open && failure === undefined)) return; // git done: the rest is in `output`
      if (failure !== undefined) reject(failure.error);
      else if (next < oids.length) reject(new Error(`git cat-file gave ${next} of ${oids.length} file versions`));
      else resolve();
    };
    cat.stdout.on("data", (chunk: Buffer) => {
      output.push(chunk);
      pump();
    });
    void cat.finished.catch(fail).finally(() => {
      exited = true;
      pump();
    });
    void options.startAfter
      .then(() => (open = true))
      .catch(fail)
      .finally(pump);
  });
}

/** `cat-file --batch` output as it comes, taken one whole object at a time. */
class BatchOutput {
  private readonly chunks: Buffer[] = [];
  private length = 0;
  private header: { size: number } | undefined;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The next object's bytes, or the id git says is missing; undefined until more output comes. */
  next(): Buffer | { missing: string } | undefined {
    if (this.header === undefined) {
      const line = this.takeLine();
      if (line === undefined) return undefined;
      const [oid, type, size] = line.split(" ");
      if (type === "missing" || size === undefined) return { missing: oid ?? line };
      this.header = { size: Number(size) };
    }
    if (this.length < this.header.size + 1) return undefined;
    const bytes = this.take(this.header.size);
    this.take(1); // the newline after each object
    this.header = undefined;
    return bytes;
  }

  private takeLine(): string | undefined {
    for (;;) {
      const first = this.chunks[0];
      if (first === undefined) return undefined;
      const end = first.indexOf(0x0a);
      if (end >= 0) {
        const line = first.subarray(0, end).toString("utf8");
        this.take(end + 1);
        return line;
      }
      // A header split across chunks (headers are short): join the first two and look again.
      const second = this.chunks[1];
      if (second === undefined) return undefined;
      this.chunks.splice(0, 2, Buffer.concat([first, second]));
    }
  }

  /** The next `count` bytes: a view of one chunk when it holds them, else one copy. */
  private take(count: number): Buffer {
    const first = this.chunks[0] as Buffer;
    let taken: Buffer;
    if (first.length >= count) {
      taken = first.subarray(0, count);
      if (first.length === count) this.chunks.shift();
      else this.chunks[0] = first.subarray(count);
    } else {
      taken = Buffer.allocUnsafe(count);
      for (let at = 0; at < count; ) {
        const chunk = this.chunks[0] as Buffer;
        const part = Math.min(chunk.length, count - at);
        chunk.copy(taken, at, 0, part);
        at += part;
        if (part === chunk.length) this.chunks.shift();
        else this.chunks[0] = chunk.subarray(part);
      }
    }
    this.length -= count;
    return taken;
  }
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
