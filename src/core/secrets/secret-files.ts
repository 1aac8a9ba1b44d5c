/**
 * Where the known secrets of files come from: every workspace folder's secret files (found by name with
 * looksLikeSecretFile, wherever they sit, .gitignore or not, and through links, even out of the
 * workspace), and the credential stores in HOME a command could print where no sandbox hides
 * them. A walk finds them when a task begins and again at most every WALK_INTERVAL_MS; each
 * request re-reads only the files that changed (one stat each) and the roots' own entries.
 */
import type { Dirent } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import { HEAVY_FOLDERS } from "../files/walk";
import { looksLikeSecretFile } from "../ignore/secret-files";
import { isWithin } from "../util/real-paths";
import type { WorkspaceRoots } from "../util/workspace-roots";
import { secretFileValues, type KnownSecret } from "./known-secrets";

/** HOME's credential files (the sandbox hides them; without one, `cat ~/.netrc` would work). */
const HOME_SECRET_FILES = [".netrc", ".git-credentials", ".npmrc", ".pypirc", ".aws/credentials", ".docker/config.json", ".ssh/id_rsa", ".ssh/id_ed25519", ".ssh/id_ecdsa"];
/** A walk stops here: what it found so far still counts. */
const MAX_ENTRIES = 100_000;
/** Larger files are not credentials files; reading them would cost. */
const MAX_FILE_BYTES = 256 * 1024;
const WALK_INTERVAL_MS = 30_000;

interface ReadFile {
  readonly stamp: string;
  readonly values: readonly KnownSecret[];
}

export class SecretFiles {
  private walked: readonly string[] = [];
  private walking: Promise<void> | undefined;
  private lastWalk = -Infinity;
  private readonly read = new Map<string, ReadFile>();
  /** Every workspace folder's path, the primary first. */
  private readonly roots: readonly string[];

  /** `workspace`: the folders whose secret files count; a file is named as the model writes its path. */
  constructor(
    private readonly workspace: WorkspaceRoots,
    private readonly home: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.roots = workspace.paths;
  }

  /** The task begins: walk now, in the background. */
  start(): void {
    if (!this.walking) this.walking = this.walk();
  }

  /**
   * Every value the secret files hold now. `waitForWalk`: until the first walk ends (a task's
   * first request carries no tool's output yet, so it need not wait); later walks run in the background.
   */
  async values(waitForWalk: boolean): Promise<KnownSecret[]> {
    this.start();
    if (this.lastWalk === -Infinity) {
      if (waitForWalk) await this.walking;
    }
    else if (this.now() - this.lastWalk >= WALK_INTERVAL_MS && !this.walking) this.walking = this.walk();
    const files = new Set([...this.walked, ...(await this.rootEntries()), ...this.homeFiles()]);
    const values: KnownSecret[] = [];
    for (const file of files) values.push(...(await this.valuesOf(file)));
    return values;
  }

  private async walk(): Promise<void> {
    const found: string[] = [];
    let entries = 0;
    const pending = [...this.roots];
    for (let folder = pending.pop(); folder !== undefined && entries < MAX_ENTRIES; folder = pending.pop()) {
      const dirents = await readdir(folder, { withFileTypes: true }).catch((): Dirent[] => []);
      for (const dirent of dirents) {
        entries++;
        const full = path.join(folder, dirent.name);
        if (dirent.isDirectory()) {
          if (!HEAVY_FOLDERS.has(dirent.name)) pending.push(full);
        } else if (dirent.isSymbolicLink()) {
          found.push(...(await this.throughLink(full)));
        } else if (looksLikeSecretFile(full)) {
          found.push(full);
        }
      }
    }
    this.walked = found;
    this.lastWalk = this.now();
    this.walking = undefined;
  }

  /** A link to a secret file, or to a folder (often out of the workspace) holding some: `cat link/*` would reach them. */
  private async throughLink(link: string): Promise<string[]> {
    const target = await realpath(link).catch(() => undefined);
    if (!target) return [];
    const info = await stat(target).catch(() => undefined);
    if (info?.isFile()) return looksLikeSecretFile(link) || looksLikeSecretFile(target) ? [target] : [];
    if (!info?.isDirectory() || this.roots.some((root) => isWithin(root, target))) return []; // inside: the walk finds it
    const dirents = await readdir(target, { withFileTypes: true }).catch((): Dirent[] => []);
    return dirents.filter((d) => d.isFile() && looksLikeSecretFile(d.name)).map((d) => path.join(target, d.name));
  }

  /** The roots' own entries, where `.env` files sit, judged each request (a command may just have made one). */
  private async rootEntries(): Promise<string[]> {
    const found: string[] = [];
    for (const root of this.roots) {
      const dirents = await readdir(root, { withFileTypes: true }).catch((): Dirent[] => []);
      for (const d of dirents) if (!d.isDirectory() && looksLikeSecretFile(d.name)) found.push(path.join(root, d.name));
    }
    return found;
  }

  private homeFiles(): string[] {
    return this.home ? HOME_SECRET_FILES.map((file) => path.join(this.home as string, file)) : [];
  }

  /** A file's values, read again only when its size or time changed. */
  private async valuesOf(file: string): Promise<readonly KnownSecret[]> {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile() || info.size > MAX_FILE_BYTES) return [];
    const stamp = `${info.size}:${info.mtimeMs}`;
    const cached = this.read.get(file);
    if (cached?.stamp === stamp) return cached.values;
    const text = await readFile(file, "utf8").catch(() => undefined);
    const values = text === undefined ? [] : secretFileValues(text, this.shownName(file));
    this.read.set(file, { stamp, values });
    return values;
  }

  private shownName(file: string): string {
    if (this.workspace.holding(file)) return this.workspace.shown(file);
    if (this.home && isWithin(this.home, file)) return `~/${path.relative(this.home, file)}`;
    return file;
  }
}
