/**
 * `tandem --list-tasks` (with `--json`, `--search`, `--all-workspaces`, `--sort`) and `tandem export
 * TASK_ID`: the saved tasks read, searched and exported without the agent. A bundle of its own
 * (dist/cli-history.js), which the launcher loads instead of the agent's, as `checkpoints` does.
 *
 * "This workspace" in the CLI: by default each workspace has its own storage folder, so its tasks
 * are all of that folder's; with `--storage DIR`, a folder several workspaces may share, those
 * that name this workspace, or none (saved before tasks recorded it). `--all-workspaces`: every
 * workspace folder under the data folder, or all of DIR.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { exportTask } from "../core/history/export-task";
import { HistorySearch } from "../core/history/history-search";
import { TaskDigests } from "../core/history/task-digests";
import { tandemDataFolder, workspacesFolder } from "../core/storage/paths";
import { TaskHistory } from "../core/storage/task-history";
import { writeFileAtomic } from "../core/storage/atomic-write";
import { errorText } from "../core/util/error-text";
import { compareHistory, orderMatches } from "../shared/history-view";
import type { HistoryItem, HistoryMatch } from "../shared/protocol";
import type { CliOptions } from "./args";
import { EXIT } from "./exit-codes";
import type { HistoryAction } from "./history-args";
import { findSavedTask, formatTaskList, storageRootFor } from "./saved-tasks";

const note = (text: string) => process.stderr.write(`${text}\n`);

/** A task the search did not find: the person named something that is not there (exit 64). */
class NotFound extends Error {}

export async function runHistoryCli(action: HistoryAction, cli: Pick<CliOptions, "storage" | "cwd" | "json">): Promise<number> {
  try {
    const root = storageRootFor(cli.storage, cli.cwd, process.env);
    if (!root) throw new Error("Saved tasks need storage: leave out --no-storage.");
    if (action.kind === "list") await list(action, cli, root);
    else await exportOne(action, cli, root);
    return EXIT.completed;
  } catch (error) {
    note(`tandem: ${errorText(error)}`);
    return error instanceof NotFound ? EXIT.usage : EXIT.failed;
  }
}

/** One storage root's index and digests. */
interface Store {
  readonly root: string;
  readonly history: TaskHistory;
  readonly digests: TaskDigests;
}

/** Read only: a task may be running in this storage, and its runner owns the index. */
function openStore(root: string): Store {
  const onError = (error: unknown) => note(`tandem: ${errorText(error)}`);
  return { root, history: new TaskHistory(root, onError, { readOnly: true }), digests: new TaskDigests(root, onError, { readOnly: true }) };
}

/** The storage roots to read: this workspace's, or every workspace's under the data folder. */
async function storesFor(cli: Pick<CliOptions, "storage" | "cwd">, root: string, all: boolean): Promise<Store[]> {
  if (!all || cli.storage.kind !== "default") return [openStore(root)];
  const folder = workspacesFolder(tandemDataFolder(process.env));
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  return names.map((name) => openStore(join(folder, name)));
}

async function list(action: Extract<HistoryAction, { kind: "list" }>, cli: Pick<CliOptions, "storage" | "cwd" | "json">, root: string): Promise<void> {
  const stores = await storesFor(cli, root, action.allWorkspaces);
  const mine = (item: HistoryItem) => action.allWorkspaces || cli.storage.kind === "default" || item.workspace === undefined || item.workspace === cli.cwd;
  const found: { item: HistoryItem; match?: HistoryMatch }[] = [];
  const seen = new Set<string>();
  for (const store of stores) {
    const items = (await store.history.list()).filter((item) => mine(item) && !seen.has(item.id));
    for (const item of items) seen.add(item.id);
    if (!action.search) {
      found.push(...items.map((item) => ({ item })));
      continue;
    }
    const { matches } = await new HistorySearch(store.history, store.digests).search(action.search);
    found.push(...orderMatches(matches, new Map(items.map((i) => [i.id, i])), action.sort));
  }
  const compare = compareHistory(action.sort);
  found.sort((a, b) => (a.match && b.match ? a.match.rank - b.match.rank : 0) || compare(a.item, b.item));
  if (cli.json) {
    for (const { item, match } of found) process.stdout.write(`${JSON.stringify(match ? { ...item, match: { field: match.field, rank: match.rank, ...(match.snippet ? { snippet: match.snippet.text } : {}) } } : item)}\n`);
    return;
  }
  const where = action.allWorkspaces && cli.storage.kind === "default" ? workspacesFolder(tandemDataFolder(process.env)) : root;
  process.stdout.write(`${formatTaskList(found, { workspace: action.allWorkspaces ? "all workspaces" : cli.cwd, where, sort: action.sort, search: action.search, withWorkspace: action.allWorkspaces })}\n`);
}

/** The task in this workspace's storage, else (by default storage) in another workspace's. */
async function exportOne(action: Extract<HistoryAction, { kind: "export" }>, cli: Pick<CliOptions, "storage" | "cwd">, root: string): Promise<void> {
  const here = openStore(root);
  let store = here;
  let item: HistoryItem | undefined;
  try {
    item = await findSavedTask(here.history, action.taskId, root);
  } catch (error) {
    for (const other of (await storesFor(cli, root, true)).filter((s) => s.root !== root)) {
      item = (await other.history.list()).find((i) => i.id === action.taskId || (action.taskId.length >= 8 && i.id.startsWith(action.taskId)));
      if (item) {
        store = other;
        break;
      }
    }
    if (!item) throw new NotFound(`${errorText(error)} No other workspace has it either.`);
  }
  const { markdown } = await exportTask(store.root, store.history, item.id);
  if (!action.output) {
    process.stdout.write(markdown);
    return;
  }
  await writeFileAtomic(action.output, markdown).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`Cannot write ${action.output}: ${error.code === "ENOENT" ? "its folder does not exist" : errorText(error)}.`);
  });
  note(`Exported task ${item.id} to ${action.output}.`);
}
