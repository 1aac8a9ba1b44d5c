/**
 * The person's rules for the prompt, read fresh before every request (the seed: attemptApiRequest
 * reads the rules files). Sources, in this fixed order (general first, so the workspace's own
 * rules come later and weigh more):
 *   1. the global rules folder (`<Tandem storage>/rules/`), its .md/.txt files in name order;
 *   2. for each workspace folder (the primary first): `.tandemrules`, `.clinerules`, `AGENTS.md`, `.cursorrules`,
 *      `.cursor/rules/`, `.windsurfrules` — each a file, or (the first two, and `.cursor/rules`) a
 *      folder whose .md/.txt (Cursor: .mdc) files are read in name order; subfolders (workflows/,
 *      hooks/) belong to other features and are skipped.
 * Ignored and secret files never load (judged on the named and the real path by the guard); a link
 * leading outside its root does not load either. The files together stay under RULES_LIMIT_BYTES:
 * whole files are cut from the end and a warning names them. Nothing here throws for a bad file:
 * each problem becomes a warning. The custom instructions setting is passed through untouched.
 *
 * Cost: a `RulesReader` keeps each file's text keyed by its real path, mtime and size, and each
 * folder's listing by its mtime, so an unchanged rules set costs only stats.
 */
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import * as path from "node:path";
import type { WorkspaceRoot } from "../../host/bridge";
import type { RuleFileView } from "../../shared/protocol";
import type { PathGuard } from "../ignore/path-guard";
import { isWithin } from "../util/real-paths";
import { errorText } from "../util/error-text";

/** About 12k tokens: enough for a thorough rule set, small enough to pay for on every request. */
export const RULES_LIMIT_BYTES = 48 * 1024;

const TEXT_EXTENSIONS = [".md", ".txt"];
const CURSOR_EXTENSIONS = [".md", ".mdc", ".txt"];

/** The workspace's candidates, in prompt order. `folder`: may be a folder of rule files. */
const WORKSPACE_SOURCES: readonly { readonly name: string; readonly file: boolean; readonly folder: boolean; readonly extensions: readonly string[] }[] = [
  { name: ".tandemrules", file: true, folder: true, extensions: TEXT_EXTENSIONS },
  { name: ".clinerules", file: true, folder: true, extensions: TEXT_EXTENSIONS },
  { name: "AGENTS.md", file: true, folder: false, extensions: TEXT_EXTENSIONS },
  { name: ".cursorrules", file: true, folder: false, extensions: TEXT_EXTENSIONS },
  { name: ".cursor/rules", file: false, folder: true, extensions: CURSOR_EXTENSIONS },
  { name: ".windsurfrules", file: true, folder: false, extensions: TEXT_EXTENSIONS },
];

export interface RulesInput {
  /** The workspace folders; the first is the primary (its files are named plainly, the others' `name/…`). */
  readonly roots: readonly WorkspaceRoot[];
  /** `<Tandem storage>/rules/`; none: no global rules. */
  readonly globalFolder?: string;
  readonly guard: PathGuard;
  /** Rule name → enabled; a name not listed is on. */
  readonly toggles: Readonly<Record<string, boolean>>;
  readonly customInstructions: string;
  /** False: no rule files at all (the CLI's --no-rules); the custom instructions still count. */
  readonly files?: boolean;
  readonly limitBytes?: number;
}

/** A rules file that was found (loaded, switched off, or cut by the limit). `name`: as the model writes its path (`AGENTS.md`, `backend/AGENTS.md`), or `global/…`. */
export type RuleFile = RuleFileView;

export interface LoadedRules {
  /** In prompt order, only those that go into the prompt. */
  readonly sources: readonly { readonly name: string; readonly text: string }[];
  /** Every rule file found, for the panel's switches. */
  readonly files: readonly RuleFile[];
  /** What the person should know: files skipped and why, what the size limit cut. */
  readonly warnings: readonly string[];
  readonly customInstructions: string;
}

interface Candidate {
  readonly name: string;
  readonly absolute: string;
  /** The folder a link must not lead out of. */
  readonly root: string;
}

type FileResult = { readonly text: string } | { readonly warning: string };

export class RulesReader {
  private readonly texts = new Map<string, { readonly key: string; readonly result: FileResult }>();
  private readonly listings = new Map<string, { readonly mtimeMs: number; readonly names: readonly string[] }>();

  async read(input: RulesInput): Promise<LoadedRules> {
    const warnings: string[] = [];
    const candidates = input.files === false ? [] : await this.candidates(input, warnings);
    const loaded: { name: string; text: string }[] = [];
    const files: RuleFile[] = [];
    for (const candidate of candidates) {
      const enabled = input.toggles[candidate.name] !== false;
      if (input.guard.isIgnored(candidate.absolute)) {
        warnings.push(`${candidate.name} is ignored (.tandemignore, .clineignore or a secret-looking name), so it was not loaded as a rule.`);
        continue;
      }
      if (!enabled) {
        files.push({ name: candidate.name, enabled });
        continue;
      }
      const result = await this.readFile(candidate, input);
      if ("warning" in result) warnings.push(result.warning);
      else if (result.text.trim() !== "") loaded.push({ name: candidate.name, text: result.text });
      if ("text" in result) files.push({ name: candidate.name, enabled });
    }
    const { kept, cut } = withinLimit(loaded, input.limitBytes ?? RULES_LIMIT_BYTES);
    if (cut.length > 0) {
      const kb = Math.round((input.limitBytes ?? RULES_LIMIT_BYTES) / 1024);
      warnings.push(`The rules are over the ${kb} KB limit, so these were left out: ${cut.join(", ")}. Shorten them or switch some off.`);
    }
    const cutSet = new Set(cut);
    return {
      sources: kept,
      files: files.map((f) => (cutSet.has(f.name) ? { ...f, cut: true } : f)),
      warnings,
      customInstructions: input.customInstructions.trim(),
    };
  }

  /** Every rule file that exists, in prompt order, with its display name. */
  private async candidates(input: RulesInput, warnings: string[]): Promise<Candidate[]> {
    const out: Candidate[] = [];
    if (input.globalFolder) {
      const names = await this.folderEntries(input.globalFolder, TEXT_EXTENSIONS, warnings, "global rules folder");
      out.push(...names.map((name) => ({ name: `global/${name}`, absolute: path.join(input.globalFolder!, name), root: input.globalFolder! })));
    }
    for (const [index, { name: rootName, path: root }] of input.roots.entries()) {
      // Named as the model writes paths: the primary folder's plainly, another's under its name.
      const prefix = index === 0 ? "" : `${rootName}/`;
      for (const source of WORKSPACE_SOURCES) {
        const absolute = path.join(root, source.name);
        const stats = await statOrUndefined(absolute);
        if (!stats) continue;
        const name = `${prefix}${source.name}`;
        if (stats.isDirectory() && source.folder) {
          const names = await this.folderEntries(absolute, source.extensions, warnings, name);
          out.push(...names.map((entry) => ({ name: `${name}/${entry}`, absolute: path.join(absolute, entry), root })));
        } else if (stats.isFile() && source.file) {
          out.push({ name, absolute, root });
        } else {
          warnings.push(`${name} is ${stats.isDirectory() ? "a folder" : "not a regular file"}; a rules ${source.file ? "file" : "folder"} was expected, so it was not loaded.`);
        }
      }
    }
    return out;
  }

  /** A folder's rule files (by extension, in name order), cached on the folder's mtime. */
  private async folderEntries(folder: string, extensions: readonly string[], warnings: string[], label: string): Promise<readonly string[]> {
    const stats = await statOrUndefined(folder);
    if (!stats?.isDirectory()) return [];
    const cached = this.listings.get(folder);
    if (cached && cached.mtimeMs === stats.mtimeMs) return cached.names;
    let names: string[];
    try {
      const entries = await readdir(folder, { withFileTypes: true });
      // Links count as files here; where they lead is judged when they are read.
      names = entries
        .filter((e) => (e.isFile() || e.isSymbolicLink()) && extensions.includes(path.extname(e.name).toLowerCase()))
        .map((e) => e.name)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    } catch (error) {
      warnings.push(`The ${label} could not be listed (${errorText(error)}), so its rules were not loaded.`);
      return [];
    }
    this.listings.set(folder, { mtimeMs: stats.mtimeMs, names });
    return names;
  }

  private async readFile(candidate: Candidate, input: RulesInput): Promise<FileResult> {
    const { name, absolute } = candidate;
    let real: string;
    let stats: Stats;
    try {
      // Always the real path: a linked folder (`.clinerules` → elsewhere) leads its plain files out too.
      real = await realpath(absolute);
      stats = await stat(real);
    } catch (error) {
      return { warning: `${name} could not be read (${errorText(error)}), so it was not loaded.` };
    }
    if (real !== absolute) {
      const realRoot = await realpath(candidate.root).catch(() => candidate.root);
      if (!isWithin(realRoot, real)) return { warning: `${name} leads through a link to ${real}, outside ${candidate.root === input.globalFolder ? "the global rules folder" : "the workspace"}, so it was not loaded.` };
      if (input.guard.isIgnored(real)) return { warning: `${name} leads to an ignored or secret file, so it was not loaded as a rule.` };
    }
    if (!stats.isFile()) return { warning: `${name} is not a regular file, so it was not loaded.` };
    const limit = input.limitBytes ?? RULES_LIMIT_BYTES;
    if (stats.size > limit) return { warning: `${name} is ${Math.round(stats.size / 1024)} KB, over the ${Math.round(limit / 1024)} KB limit for all rules, so it was not loaded.` };
    // ctime too: a chmod that makes a file (un)readable changes only that.
    const key = `${stats.mtimeMs}:${stats.ctimeMs}:${stats.size}:${stats.ino}`;
    const cached = this.texts.get(real);
    if (cached?.key === key) return withName(cached.result, name);
    const result = await readText(real);
    this.texts.set(real, { key, result });
    return withName(result, name);
  }
}

/** Cached results carry no name (a file may be shown under another one); the warning gets it here. */
function withName(result: FileResult, name: string): FileResult {
  return "warning" in result ? { warning: `${name} ${result.warning}` } : result;
}

async function readText(file: string): Promise<FileResult> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    return { warning: `could not be read (${errorText(error)}), so it was not loaded.` };
  }
  if (bytes.subarray(0, 8192).includes(0)) return { warning: "is not a text file, so it was not loaded." };
  return { text: bytes.toString("utf8").replace(/^\uFEFF/, "") };
}

/** Keeps files from the start while they fit; the rest is cut whole, from the end. */
function withinLimit(sources: readonly { name: string; text: string }[], limit: number): { kept: { name: string; text: string }[]; cut: string[] } {
  const kept: { name: string; text: string }[] = [];
  const cut: string[] = [];
  let total = 0;
  for (const source of sources) {
    const size = Buffer.byteLength(source.text, "utf8");
    if (cut.length === 0 && total + size <= limit) {
      kept.push(source);
      total += size;
    } else {
      cut.push(source.name);
    }
  }
  return { kept, cut };
}

async function statOrUndefined(p: string): Promise<Stats | undefined> {
  try {
    return await stat(p);
  } catch {
    return undefined;
  }
}

/** The prompt's section for the rules: each file under its name. Empty when there are none. */
export function rulesForPrompt(rules: Pick<LoadedRules, "sources">): string {
  return rules.sources.map((s) => `# ${s.name}\n\n${s.text.trim()}`).join("\n\n");
}
