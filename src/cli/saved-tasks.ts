/**
 * Where the CLI keeps task histories, and finding a saved task again. By default each workspace
 * has its own folder under the XDG data home, so `--resume last` and `--list-tasks` see only the
 * tasks of the folder they run in.
 */
import { relative } from "node:path";
import { tandemDataFolder, workspaceStorageRoot } from "../core/storage/paths";
import type { TaskHistory } from "../core/storage/task-history";
import type { ChatMessage } from "../shared/messages";
import type { HistorySort } from "../shared/history-view";
import type { HistoryItem, HistoryMatch } from "../shared/protocol";
import type { CliOptions } from "./args";

/** `--storage DIR`, none with `--no-storage`, else the workspace's own folder under the data folder. */
export function storageRootFor(storage: CliOptions["storage"], workspace: string, env: NodeJS.ProcessEnv): string | undefined {
  if (storage.kind === "none") return undefined;
  if (storage.kind === "dir") return storage.dir;
  return workspaceStorageRoot(tandemDataFolder(env), workspace);
}

/**
 * What sandboxed commands may not read: this run's saved tasks and the whole data folder (every
 * workspace's tasks, the MCP settings with their servers' keys), wherever XDG_DATA_HOME puts it.
 */
export function privateStorageFor(storageRoot: string | undefined, env: NodeJS.ProcessEnv): string[] {
  const dataFolder = tandemDataFolder(env);
  // A root inside the data folder is hidden with it (each hidden path costs the sandbox a mount).
  const inside = storageRoot !== undefined && !relative(dataFolder, storageRoot).startsWith("..");
  return storageRoot && !inside ? [storageRoot, dataFolder] : [dataFolder];
}

/** The saved task `wanted` names: "last", a whole id, or the start of exactly one id. */
export async function findSavedTask(history: TaskHistory, wanted: string, where: string): Promise<HistoryItem> {
  const items = await history.list();
  if (items.length === 0) throw new Error(`No saved tasks for this workspace (looked in ${where}).`);
  if (wanted === "last") return items[0]!;
  const exact = items.find((item) => item.id === wanted);
  if (exact) return exact;
  const matches = items.filter((item) => item.id.startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) throw new Error(`"${wanted}" starts ${matches.length} task ids: give more of it (--list-tasks shows them).`);
  throw new Error(`No saved task "${wanted}" in this workspace: --list-tasks shows them.`);
}

export interface TaskListShape {
  /** Whose tasks: a workspace folder, or "all workspaces". */
  readonly workspace: string;
  /** Where they were read from. */
  readonly where: string;
  readonly sort: HistorySort;
  /** The search, when there was one: the rows are its matches, best first. */
  readonly search?: string;
  /** Each row names its workspace (--all-workspaces). */
  readonly withWorkspace?: boolean;
}

const SORT_WORDS: Record<HistorySort, string> = { newest: "newest first", oldest: "oldest first", cost: "most expensive first", tokens: "most tokens first" };

/** One line per task, in the order given; a conversation match adds the words it matched. */
export function formatTaskList(rows: readonly { item: HistoryItem; match?: HistoryMatch }[], shape: TaskListShape): string {
  const { workspace, where, search } = shape;
  if (rows.length === 0) return search ? `No saved task for ${workspace} matches "${search}" (looked in ${where}).` : `No saved tasks for ${workspace} (looked in ${where}).`;
  const lines = rows.flatMap(({ item, match }) => {
    const when = new Date(item.startedAt).toISOString().slice(0, 16).replace("T", " ");
    const prompt = item.text.replace(/\s+/g, " ").trim();
    const short = prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt;
    const star = item.favorite ? " ★" : "";
    const place = shape.withWorkspace ? `  (${item.workspace ?? "workspace not recorded"})` : "";
    const line = `${item.id}  ${when}  ${statusLabel(item).padEnd(11)} $${item.usage.cost.toFixed(4)}  ${short}${star}${place}`;
    return match?.snippet ? [line, `    ${match.snippet.by === "person" ? "you" : "tandem"}: ${match.snippet.text}`] : [line];
  });
  const order = search ? `matching "${search}", best match first` : SORT_WORDS[shape.sort];
  return [`Saved tasks for ${workspace}, ${order}, times in UTC (resume one with --resume ID, or --resume last):`, ...lines].join("\n");
}

/** "running" in the index of a runner that is gone means it was killed; the index cannot tell, so neither do we. */
function statusLabel(item: HistoryItem): string {
  if (item.status === undefined) return "?";
  return item.status === "running" ? "unfinished" : item.status;
}

/** The person's `n`th message of a saved chat (1: the task), for `--from`; the error lists them. */
export function personMessage(chat: readonly ChatMessage[], n: number): ChatMessage {
  const theirs = chat.filter((row) => row.type === "say" && (row.say === "task" || row.say === "user_feedback"));
  const found = theirs[n - 1];
  if (found) return found;
  const listed = theirs.map((row, i) => `  ${i + 1}: ${(row.text ?? "").replace(/\s+/g, " ").trim().slice(0, 60)}`).join("\n");
  throw new Error(`The task has ${theirs.length} message${theirs.length === 1 ? "" : "s"} of yours, so there is no message ${n}:\n${listed}`);
}
