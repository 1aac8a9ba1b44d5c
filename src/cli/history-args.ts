/**
 * The saved-task commands' arguments: `--list-tasks [--json] [--search TEXT] [--all-workspaces]
 * [--sort S]` and `tandem export TASK_ID [--output FILE]`. Their flags go with those commands
 * only; a mistake is an Error that says which goes with what.
 */
import { resolve } from "node:path";
import { HISTORY_SORTS, isHistorySort, type HistorySort } from "../shared/history-view";

export type HistoryAction =
  /** `search`: only the tasks whose text or conversation match; `allWorkspaces`: every workspace's saved tasks. */
  | { readonly kind: "list"; readonly search?: string; readonly allWorkspaces: boolean; readonly sort: HistorySort }
  /** `output`: the file to write (absolute); none: stdout. */
  | { readonly kind: "export"; readonly taskId: string; readonly output?: string };

export interface HistoryFlags {
  "list-tasks"?: boolean;
  search?: string;
  "all-workspaces"?: boolean;
  sort?: string;
  output?: string;
}

/** `--list-tasks` and its flags, once the command line says it lists. */
export function parseListAction(values: HistoryFlags): HistoryAction {
  if (values.output !== undefined) throw new Error("--output goes with `tandem export`.");
  const sort = values.sort ?? "newest";
  if (!isHistorySort(sort)) throw new Error(`Unknown --sort "${sort}": use ${HISTORY_SORTS.join(", ")}.`);
  const search = values.search?.trim();
  if (values.search !== undefined && !search) throw new Error("--search needs some text to look for.");
  return { kind: "list", ...(search ? { search } : {}), allWorkspaces: values["all-workspaces"] ?? false, sort };
}

/** `tandem export TASK_ID [--output FILE]`: `words` are what follows `export`. */
export function parseExportAction(words: readonly string[], values: HistoryFlags, cwd: string): HistoryAction {
  listingFlagsOnly(values, "`tandem export`");
  const [taskId, ...rest] = words;
  if (!taskId?.trim() || rest.length > 0) throw new Error("`tandem export` takes one task id (--list-tasks shows them): tandem export TASK_ID [--output FILE].");
  if (values.output !== undefined && !values.output.trim()) throw new Error("--output needs a file.");
  return { kind: "export", taskId: taskId.trim(), ...(values.output !== undefined ? { output: resolve(cwd, values.output) } : {}) };
}

/** Refuses the listing's and the export's flags for any other command. */
export function listingFlagsOnly(values: HistoryFlags, what: string): void {
  const given = (["search", "all-workspaces", "sort"] as const).filter((flag) => values[flag] !== undefined && values[flag] !== false);
  if (given.length > 0) throw new Error(`--${given[0]} goes with --list-tasks, not ${what}.`);
}
