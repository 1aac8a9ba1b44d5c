/**
 * The panel's two file chores on Tandem's global MCP file: making sure it exists before it is
 * opened for editing, and "Import from Cline" — Cline's servers merged in without overwriting
 * any Tandem already has under the same name. Both files use Cline's format, so entries are
 * copied as they are (old Cline's `transportType` becomes `type`).
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { writeFileAtomic } from "../storage/atomic-write";

export const EMPTY_MCP_FILE = '{\n  "mcpServers": {}\n}\n';

/** Creates `file` with no servers when it does not exist; leaves an existing one alone. */
export async function ensureMcpFile(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(file, EMPTY_MCP_FILE, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

export interface ClineImport {
  /** Cline's file that was read. */
  readonly from: string;
  readonly imported: readonly string[];
  /** Cline's servers left out because Tandem's file has one of that name. */
  readonly kept: readonly string[];
}

/** Reads the first of `candidates` that exists and merges its servers into `target`. */
export async function importClineServers(candidates: readonly string[], target: string): Promise<ClineImport> {
  const found = await firstReadable(candidates);
  if (!found) throw new Error(`No Cline MCP settings were found (looked for ${candidates.join(", ")}).`);
  const theirs = serversOf(parse(found.text, found.file), found.file);
  const ours = parse((await readOptional(target)) ?? EMPTY_MCP_FILE, target);
  const servers = serversOf(ours, target);
  const imported: string[] = [];
  const kept: string[] = [];
  for (const [name, entry] of Object.entries(theirs)) {
    if (Object.hasOwn(servers, name)) kept.push(name);
    else {
      servers[name] = fromCline(entry);
      imported.push(name);
    }
  }
  if (imported.length > 0) {
    await mkdir(path.dirname(target), { recursive: true });
    await writeFileAtomic(target, `${JSON.stringify({ ...ours, mcpServers: servers }, null, 2)}\n`);
  }
  return { from: found.file, imported, kept };
}

/** The sentence the panel shows after an import. */
export function describeImport(result: ClineImport): string {
  const names = (list: readonly string[]) => list.map((n) => `"${n}"`).join(", ");
  const parts = [
    result.imported.length > 0 ? `Imported ${result.imported.length} MCP server${result.imported.length === 1 ? "" : "s"} from Cline: ${names(result.imported)}.` : "No new MCP server to import from Cline.",
  ];
  if (result.kept.length > 0) parts.push(`Kept Tandem's own ${names(result.kept)} (same name in Cline's file).`);
  return parts.join(" ");
}

function fromCline(entry: unknown): unknown {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return entry;
  const { transportType, ...rest } = entry as Record<string, unknown>;
  if (rest.type === undefined && (transportType === "stdio" || transportType === "sse")) rest.type = transportType;
  return rest;
}

function parse(text: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); nothing was imported.`, { cause: error });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${file} does not hold a JSON object; nothing was imported.`);
  return value as Record<string, unknown>;
}

function serversOf(root: Record<string, unknown>, file: string): Record<string, unknown> {
  const servers = root.mcpServers ?? {};
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) throw new Error(`"mcpServers" in ${file} is not an object; nothing was imported.`);
  return { ...(servers as Record<string, unknown>) };
}

async function firstReadable(files: readonly string[]): Promise<{ file: string; text: string } | undefined> {
  for (const file of files) {
    const text = await readOptional(file);
    if (text !== undefined) return { file, text };
  }
  return undefined;
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

