/**
 * search_files through ripgrep: which `rg` to run (the host's, else the one on PATH, found once
 * per process), and running it with JSON output into SearchResults.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { HEAVY_FOLDERS, isInsideHeavyFolder } from "../../files/walk";
import type { SearchResults } from "./search-files-results";
import { ToolError, type PathGuard } from "./types";
import type { ShowPath } from "../../files/listing";

/** Whether `rg` is on PATH: a fact about the machine, so it is looked up once. */
let onPath: Promise<string | undefined> | undefined;

/**
 * The rg command to run for the host's choice (`HostBridge.ripgrep`), or undefined when there is
 * none (then the JavaScript fallback searches).
 */
export function resolveRipgrep(hostChoice: string | false | undefined): Promise<string | undefined> {
  if (hostChoice === false) return Promise.resolve(undefined);
  if (hostChoice !== undefined) return Promise.resolve(hostChoice);
  onPath ??= probe("rg");
  return onPath;
}

function probe(command: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command, ["--version"], { stdio: "ignore" });
    child.on("error", () => resolve(undefined)); // not installed: the fallback takes over
    child.on("close", (code) => resolve(code === 0 ? command : undefined));
  });
}

export interface SearchRequest {
  /** The workspace folder holding the target (where rg runs and .gitignore rules start). */
  readonly cwd: string;
  /** How the model reads a path (`WorkspaceRoots.shown`). */
  readonly shown: ShowPath;
  /** Absolute file or folder to search. */
  readonly target: string;
  readonly regex: string;
  /** Globs (braces already expanded) a file must match, relative to the target. */
  readonly fileGlobs: readonly string[];
  readonly guard: PathGuard;
  readonly signal: AbortSignal;
}

export async function searchWithRipgrep(rg: string, request: SearchRequest, results: SearchResults): Promise<void> {
  const args = ["--json", "--context", "1", "--no-config", "--hidden", "--no-require-git", "--sort", "path", "--regexp", request.regex];
  for (const glob of request.fileGlobs) args.push("--glob", glob);
  if (!isInsideHeavyFolder(request.target)) for (const folder of HEAVY_FOLDERS) args.push("--glob", `!${folder}`);
  args.push("--", request.target);

  const child = spawn(rg, args, { cwd: request.cwd, stdio: ["ignore", "pipe", "pipe"], signal: request.signal });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    if (stderr.length < 4000) stderr += chunk;
  });
  const closed = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  // Awaited below; this only keeps an early throw from the loop from leaving it unhandled.
  closed.catch(() => undefined);
  let stopped = false;
  let sawOutput = false;
  try {
    for await (const line of createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (stopped) continue; // drain what is already buffered
      sawOutput = true;
      if (!takeEvent(line, request.guard, results)) {
        stopped = true;
        child.kill();
      }
    }
  } finally {
    if (child.exitCode === null) child.kill();
  }
  const code = await closed.catch((error: NodeJS.ErrnoException) => {
    if (request.signal.aborted) throw error;
    throw new Error(`Could not run ripgrep (${rg}): ${error.message}`);
  });
  if (stopped || code === 0 || code === 1) return;
  explainFailure(stderr.trim(), sawOutput, results);
}

interface RgLine {
  type: string;
  data?: { path?: RgText; lines?: RgText; line_number?: number };
}
type RgText = { text?: string; bytes?: string };

/** Feeds one JSON event to the results; false once the limit is reached. */
function takeEvent(line: string, guard: PathGuard, results: SearchResults): boolean {
  const event = JSON.parse(line) as RgLine;
  if (event.type !== "match" && event.type !== "context") return true;
  const file = decode(event.data?.path);
  const lineNumber = event.data?.line_number;
  if (file === undefined || lineNumber === undefined || guard.isIgnored(file)) return true;
  return results.add(file, lineNumber, decode(event.data?.lines) ?? "", event.type === "match");
}

/** rg sends text as `text`, or base64 `bytes` when it is not valid UTF-8. */
function decode(value: RgText | undefined): string | undefined {
  if (value?.text !== undefined) return value.text;
  return value?.bytes !== undefined ? Buffer.from(value.bytes, "base64").toString("utf8") : undefined;
}

/** Exit code 2: a bad pattern or glob is the model's to fix; unreadable files only a note. */
function explainFailure(stderr: string, sawOutput: boolean, results: SearchResults): void {
  if (/regex parse error|error parsing regex|not allowed in a regex|regex.*(too big|size limit)/i.test(stderr)) {
    throw new ToolError("invalid_param", `The regex is not valid: ${stderr}`);
  }
  if (/glob/i.test(stderr) && !sawOutput) throw new ToolError("invalid_param", `The file_pattern is not valid: ${stderr}`);
  if (sawOutput || results.matchCount > 0) {
    results.notes.push(`[Some files could not be searched: ${stderr.split("\n").slice(0, 3).join("; ")}]`);
    return;
  }
  throw new Error(`ripgrep failed: ${stderr || "no message"}`);
}
