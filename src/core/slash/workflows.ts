/**
 * Workflows: each `.md` file in a workspace's `.clinerules/workflows/` or `.tandem/workflows/`,
 * or in the global folder (`<Tandem storage>/workflows/`), is a slash command named after the file
 * (`deploy.md` is `/deploy`). Where two share a name the workspace's wins (it is the more specific),
 * and of the workspace's folders `.clinerules/` comes first, as for the rules.
 *
 * Like the rules files (context/rules.ts), a workflow is judged on its named and its real path by
 * the ignore guard, and a link must not lead out of its folder's root: such a file is not offered
 * and not read. Listing costs a readdir per folder; the text is read only when the command is sent.
 */
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import type { PathGuard } from "../ignore/path-guard";
import { errorText } from "../util/error-text";
import { isWithin } from "../util/real-paths";
import { COMMAND_NAME } from "./parse";

/** A workflow is instructions, not a document: this is generous. */
export const WORKFLOW_LIMIT_BYTES = 64 * 1024;

const WORKSPACE_FOLDERS = [".clinerules/workflows", ".tandem/workflows"];

export interface WorkflowSources {
  /** The workspace folders; the first is the task's working directory. */
  readonly roots: readonly string[];
  /** `<Tandem storage>/workflows/`; none: no global workflows. */
  readonly globalFolder?: string;
  readonly guard: PathGuard;
}

export interface Workflow {
  /** The command without its slash. */
  readonly name: string;
  readonly source: "workspace" | "global";
  /** Where it was found, as the person knows it (`.clinerules/workflows/deploy.md`, `global/deploy.md`). */
  readonly label: string;
  readonly file: string;
  /** The folder a link must not lead out of. */
  readonly root: string;
}

/** The workflows that may be offered, workspace ones first, each name once. */
export async function findWorkflows(sources: WorkflowSources): Promise<Workflow[]> {
  const found: Workflow[] = [];
  for (const root of sources.roots) {
    for (const folder of WORKSPACE_FOLDERS) {
      found.push(...(await workflowsIn(path.join(root, folder), root, "workspace", folder, sources.guard)));
    }
  }
  if (sources.globalFolder) found.push(...(await workflowsIn(sources.globalFolder, sources.globalFolder, "global", "global", sources.guard)));
  const seen = new Set<string>();
  return found.filter((workflow) => !seen.has(workflow.name) && seen.add(workflow.name));
}

async function workflowsIn(folder: string, root: string, source: Workflow["source"], label: string, guard: PathGuard): Promise<Workflow[]> {
  let names: string[];
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    names = entries.filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.toLowerCase().endsWith(".md")).map((e) => e.name);
  } catch {
    // No such folder (the usual case), or one that cannot be listed: nothing to offer from it.
    return [];
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: Workflow[] = [];
  for (const entry of names) {
    const name = entry.slice(0, -".md".length);
    if (!COMMAND_NAME.test(name)) continue;
    const workflow: Workflow = { name, source, label: `${label}/${entry}`, file: path.join(folder, entry), root };
    if ((await problemWith(workflow, guard)) === undefined) out.push(workflow);
  }
  return out;
}

/** Why a workflow may not be read (ignored, a link out of its root, not a file); none when it may. */
async function problemWith(workflow: Workflow, guard: PathGuard): Promise<string | undefined> {
  if (guard.isIgnored(workflow.file)) return "it is ignored (.tandemignore, .clineignore or a secret-looking name)";
  let real: string;
  try {
    real = await realpath(workflow.file);
    if (!(await stat(real)).isFile()) return "it is not a regular file";
  } catch (error) {
    return `it could not be read (${errorText(error)})`;
  }
  if (real !== workflow.file) {
    const realRoot = await realpath(workflow.root).catch(() => workflow.root);
    if (!isWithin(realRoot, real)) return `it leads through a link to ${real}, outside its folder`;
    if (guard.isIgnored(real)) return "it leads to an ignored or secret file";
  }
  return undefined;
}

/** The workflow's text, checked again now (the file may have changed since it was listed). Throws with the reason. */
export async function readWorkflow(workflow: Workflow, guard: PathGuard): Promise<string> {
  const problem = await problemWith(workflow, guard);
  if (problem) throw new Error(`${workflow.label} was not used: ${problem}.`);
  const bytes = await readFile(await realpath(workflow.file));
  if (bytes.length > WORKFLOW_LIMIT_BYTES) throw new Error(`${workflow.label} is ${Math.round(bytes.length / 1024)} KB, over the ${WORKFLOW_LIMIT_BYTES / 1024} KB limit for a workflow.`);
  if (bytes.subarray(0, 8192).includes(0)) throw new Error(`${workflow.label} is not a text file.`);
  return bytes.toString("utf8").replace(/^\uFEFF/, "");
}
