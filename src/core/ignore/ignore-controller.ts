/**
 * Decides which paths tools may not touch: whatever `.tandemignore` (or, for people coming from
 * Cline, `.clineignore`) in the workspace root lists, in gitignore syntax, plus files that
 * usually hold secrets unless the person allows them. Reloads when either file changes.
 * A path is judged as it is named and as where it really lands (links followed, the real path
 * against the real root), so a link is ignored when its target is.
 */
import { watch, statSync, type FSWatcher } from "node:fs";
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import type { Ignore } from "ignore";
import { isWithin, realLocation } from "../util/real-paths";
import type { PathGuard } from "./path-guard";
import { compileIgnoreRules, ruleVerdict } from "./ignore-rules";
import { looksLikeSecretFile } from "./secret-files";
import { errorText } from "../util/error-text";
import { IGNORE_FILE_NAMES } from "./ignore-file-names";



export interface IgnoreControllerOptions {
  /** Let tools read `.env`, keys and other files that usually hold secrets. Default false. */
  allowSecretFiles?: boolean;
  /** Wait this long after a change before reloading, so an editor's burst of events reloads once. */
  debounceMs?: number;
  /** Told about skipped lines and failed reloads (the old rules then stay in force). */
  onWarning?: (message: string) => void;
}

export class IgnoreController implements PathGuard {
  readonly root: string;
  /** The root with its links followed: real paths are judged against it. */
  private readonly realRoot: string;
  private rules: Ignore | undefined;
  /** Each ignore file's own rules, in reading order: which one refused a path, for the words. */
  private ruleFiles: readonly { name: string; rules: Ignore }[] = [];
  private loadedFiles: string[] = [];
  private problemList: readonly string[] = [];
  private watcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private generation = 0;
  private latestReload: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(
    root: string,
    private readonly options: IgnoreControllerOptions = {},
  ) {
    this.root = path.resolve(root);
    this.realRoot = realOrSelf(this.root);
  }

  /** A controller with the ignore files loaded, watching them for changes. */
  static async create(root: string, options: IgnoreControllerOptions = {}): Promise<IgnoreController> {
    const controller = new IgnoreController(root, options);
    await controller.reload();
    controller.watch();
    return controller;
  }

  /** Which ignore files currently supply rules (names relative to the root). */
  get activeFiles(): readonly string[] {
    return this.loadedFiles;
  }

  /** Lines skipped during the last load, e.g. ".tandemignore:3: skipped …". */
  get problems(): readonly string[] {
    return this.problemList;
  }

  /**
   * True when tools must not touch the path. A trailing separator marks a folder (so `build/`
   * patterns can match without a disk lookup); otherwise the disk is asked only when it matters.
   */
  isIgnored(absolutePath: string): boolean {
    const markedFolder = absolutePath.endsWith("/") || absolutePath.endsWith(path.sep);
    const absolute = path.resolve(this.root, absolutePath);
    if (this.ignoresLocation(absolute, markedFolder)) return true;
    const real = realOrSelf(absolute);
    return real !== absolute && this.ignoresLocation(real, markedFolder);
  }

  /** The ignore file whose rule decides that the path is refused, as judged like isIgnored (the last file with a say). */
  ignoredBy(absolutePath: string): string | undefined {
    const markedFolder = absolutePath.endsWith("/") || absolutePath.endsWith(path.sep);
    const absolute = path.resolve(this.root, absolutePath);
    for (const location of [absolute, realOrSelf(absolute)]) {
      const slashed = this.ruleRelative(location);
      if (slashed === undefined) continue;
      let decided: string | undefined;
      for (const { name, rules } of this.ruleFiles) {
        for (const form of markedFolder ? [`${slashed}/`] : [slashed, `${slashed}/`]) {
          const verdict = ruleVerdict(rules, form);
          if (verdict) decided = verdict === "ignored" ? name : undefined;
        }
      }
      if (decided) return decided;
    }
    return undefined;
  }

  /** Below the root as given (named paths) or the real root (real ones), with `/` separators; undefined outside or at the root. */
  private ruleRelative(absolute: string): string | undefined {
    const root = [this.root, this.realRoot].find((r) => isWithin(r, absolute));
    const relative = root === undefined ? "" : path.relative(root, absolute);
    return relative === "" ? undefined : relative.split(path.sep).join("/");
  }

  /**
   * One location's verdict, links not followed (`isIgnored` judges both): a secret-looking name
   * anywhere, this root's rules inside it.
   */
  ignoresLocation(absolute: string, markedFolder: boolean): boolean {
    if (!markedFolder && !this.options.allowSecretFiles && looksLikeSecretFile(absolute)) return true;
    const slashed = this.ruleRelative(absolute);
    if (!this.rules || slashed === undefined) return false;
    if (markedFolder) return this.rules.ignores(`${slashed}/`);
    if (this.rules.ignores(slashed)) return true;
    // A folder-only pattern (`build/`) matches only if the path really is a folder.
    return this.rules.ignores(`${slashed}/`) && isFolder(absolute);
  }

  /**
   * Reads the ignore files again. A missing file means no rules from it. Resolves once the rules
   * in force are at least as new as the files when it was called.
   */
  reload(): Promise<void> {
    const generation = ++this.generation;
    this.latestReload = this.load(generation);
    return this.latestReload;
  }

  private async load(generation: number): Promise<void> {
    const texts = await Promise.all(IGNORE_FILE_NAMES.map((name) => readIfPresent(path.join(this.root, name))));
    // A later reload (the watcher's) overtook this one: its result is the one to wait for.
    if (generation !== this.generation) return this.latestReload;
    const files: { name: string; rules: Ignore }[] = [];
    const problems: string[] = [];
    IGNORE_FILE_NAMES.forEach((name, i) => {
      const text = texts[i];
      if (text === undefined) return;
      const compiled = compileIgnoreRules(text, name);
      files.push({ name, rules: compiled.rules });
      problems.push(...compiled.problems);
    });
    this.rules = files.length === 0 ? undefined : mergeRules(files.map((file) => file.rules));
    this.ruleFiles = files;
    this.loadedFiles = files.map((file) => file.name);
    this.problemList = problems;
    for (const problem of problems) this.options.onWarning?.(problem);
  }

  // Stryker disable all: the watcher, not the path decision; ignore-controller.test.ts (integration) drives it.
  /** Starts watching the root for changes to the ignore files (idempotent). */
  watch(): void {
    if (this.watcher || this.disposed) return;
    // Not persistent: a watcher alone must not keep a headless run alive.
    const watcher = watch(this.root, { persistent: false }, (_event, fileName) => {
      const name = fileName?.toString();
      if (name === undefined || name === null || this.ruleFileNames().includes(name)) this.scheduleReload();
    });
    watcher.on("error", (error) => {
      this.options.onWarning?.(`Stopped watching ${this.root} for ignore-file changes: ${error.message}`);
      this.closeWatcher();
    });
    this.watcher = watcher;
  }

  dispose(): void {
    this.disposed = true;
    this.closeWatcher();
  }

  /**
   * The names in the root whose change means new rules: the ignore files, and what they link to
   * when that lies in the root too (`.clineignore -> .gitignore`). A target elsewhere is read at
   * each reload but not watched.
   */
  private ruleFileNames(): string[] {
    const targets = IGNORE_FILE_NAMES.map((name) => realOrSelf(path.join(this.root, name))).filter((real) => path.dirname(real) === this.realRoot);
    return [...IGNORE_FILE_NAMES, ...targets.map((real) => path.basename(real))];
  }

  private scheduleReload(): void {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.reload().catch((error: unknown) => {
        this.options.onWarning?.(`Could not reload the ignore files: ${errorText(error)}`);
      });
    }, this.options.debounceMs ?? 100);
    this.debounce.unref();
  }

  private closeWatcher(): void {
    clearTimeout(this.debounce);
    this.debounce = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }
}

// Stryker restore all

/** One Ignore whose rules are the files' rules in order (a later `!line` can re-include). */
function mergeRules(rules: Ignore[]): Ignore {
  const [first, ...rest] = rules;
  return rest.reduce((all, next) => all.add(next), first as Ignore);
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** Where `p` really lands; a path that cannot be resolved (a link loop, no permission) is judged as named. */
export function realOrSelf(p: string): string {
  try {
    return realLocation(p);
  } catch {
    return p; // reading through it fails the same way, so nothing is exposed
  }
}

function isFolder(absolute: string): boolean {
  try {
    return statSync(absolute).isDirectory();
  } catch {
    return false; // a path that is not there is no folder
  }
}
