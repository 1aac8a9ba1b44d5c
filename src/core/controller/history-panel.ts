/**
 * What the History view asks of the host: a search (answered with the matches only: the list
 * itself went once, in the state), a star, a delete, "Delete all", an export. The session routes
 * the messages here; this owns the search and says what changed, one message per change.
 */
import { tasksToDelete } from "../../shared/history-view";
import type { FromWebviewMessage, HistoryScope, ToWebviewMessage } from "../../shared/protocol";
import { exportTask } from "../history/export-task";
import { HistorySearch } from "../history/history-search";
import type { TaskDigests } from "../history/task-digests";
import type { TaskHistory } from "../storage/task-history";
import { errorText } from "../util/error-text";
import type { CheckpointService } from "./checkpoints";

export interface HistoryPanelDeps {
  history: TaskHistory;
  digests: TaskDigests;
  storageRoot: string;
  /** The workspace root: "Delete all" in this workspace's scope removes its tasks only. */
  workspace: string;
  post(message: ToWebviewMessage): void;
  notice(level: "info" | "warning" | "error", text: string): void;
  /** The task the chat shows, which "Delete all" keeps. */
  openTaskId(): string | undefined;
  /** Closes the open task (before it is deleted by its own Delete). */
  closeOpenTask(): Promise<void>;
  checkpoints?: CheckpointService;
  /**
   * Asks the person where to save `content` (a save dialog offering `fileName`) and saves it there:
   * the path saved to, or undefined when they cancelled. None: exports are not offered here.
   */
  saveFile?(fileName: string, content: string): Promise<string | undefined>;
}

/** The messages of the History view. */
const HISTORY_MESSAGES = ["deleteTask", "deleteTasks", "setFavorite", "searchHistory", "exportTask"] as const;
export type HistoryMessage = Extract<FromWebviewMessage, { type: (typeof HISTORY_MESSAGES)[number] }>;

export function isHistoryMessage(message: FromWebviewMessage): message is HistoryMessage {
  return (HISTORY_MESSAGES as readonly string[]).includes(message.type);
}

/** The matches one answer carries at most: enough to fill many screens, bounded however many tasks match a short query. */
export const MAX_POSTED_MATCHES = 500;

export class HistoryPanel {
  private readonly search: HistorySearch;
  /** Searches run one after another; one overtaken by a newer query is skipped, not computed. */
  private searches: Promise<void> = Promise.resolve();
  /** Counts the queries as they arrive (a reloaded page numbers its requests from 1 again). */
  private searchTicket = 0;

  constructor(private readonly deps: HistoryPanelDeps) {
    this.search = new HistorySearch(deps.history, deps.digests);
  }

  handle(message: HistoryMessage): Promise<void> {
    switch (message.type) {
      case "deleteTask":
        return this.deleteTask(message.id);
      case "deleteTasks":
        return this.deleteAll(message.scope);
      case "setFavorite":
        return this.setFavorite(message.id, message.favorite === true);
      case "searchHistory":
        return this.find(message.query, message.requestId, message.scope);
      case "exportTask":
        return this.exportTask(message.id);
    }
  }

  /** Answers `searchHistory`: the matches of the newest query in its scope, whatever came before it. */
  find(query: unknown, requestId: unknown, scope: unknown = "all"): Promise<void> {
    if (typeof query !== "string" || typeof requestId !== "number") throw new Error("searchHistory needs a query string and a numeric requestId.");
    if (scope !== "workspace" && scope !== "all") throw new Error(`Unknown History scope ${JSON.stringify(scope)}; expected workspace or all.`);
    const ticket = ++this.searchTicket;
    const run = this.searches.then(async () => {
      if (ticket !== this.searchTicket) return;
      const text = query.slice(0, 500);
      const { matches, total } = await this.search.search(text, { scope: { scope, root: this.deps.workspace }, limit: MAX_POSTED_MATCHES });
      this.deps.post({ type: "historyResults", requestId, query: text, matches, total });
    });
    this.searches = run.catch(() => undefined);
    return run;
  }

  async setFavorite(id: string, favorite: boolean): Promise<void> {
    const item = await this.deps.history.amend(id, { favorite: favorite ? true : undefined });
    if (item) this.deps.post({ type: "historyItemChanged", item });
  }

  /** One task's Delete: the open task is closed first. */
  async deleteTask(id: string): Promise<void> {
    if (this.deps.openTaskId() === id) await this.deps.closeOpenTask();
    await this.remove([id]);
  }

  /** "Delete all": the scope's tasks but the favourites and the open one (shared/history-view.ts). */
  async deleteAll(scope: HistoryScope): Promise<void> {
    if (scope !== "workspace" && scope !== "all") throw new Error(`Unknown History scope ${JSON.stringify(scope)}; expected workspace or all.`);
    const ids = tasksToDelete(await this.deps.history.list(), scope, this.deps.workspace, this.deps.openTaskId());
    if (ids.length === 0) return this.deps.notice("info", "No task to delete: the favourites and the open task are kept.");
    await this.remove(ids);
    this.deps.notice("info", `Deleted ${ids.length} task${ids.length === 1 ? "" : "s"}; the favourites and the open task are kept.`);
  }

  /** Saves the task as Markdown where the person says. */
  async exportTask(id: string): Promise<void> {
    const { saveFile } = this.deps;
    if (!saveFile) throw new Error("Exporting a task is not available here.");
    const exported = await exportTask(this.deps.storageRoot, this.deps.history, id);
    const path = await saveFile(exported.fileName, exported.markdown);
    if (path) this.deps.notice("info", `Exported the task to ${path}.`);
  }

  /** Resolves once the index's and the digests' writes asked for so far are on disk (the session's end). */
  async flush(): Promise<void> {
    await this.deps.history.flush();
    await this.deps.digests.flush();
  }

  private async remove(ids: readonly string[]): Promise<void> {
    await this.deps.digests.forget(ids);
    this.search.forget(ids);
    await this.deps.history.deleteMany(ids);
    this.deps.post({ type: "historyItemsRemoved", ids });
    // Their checkpoints go with them, in one step; what other tasks share stays.
    const [first, ...rest] = ids;
    if (!first || !this.deps.checkpoints) return;
    try {
      await (await this.deps.checkpoints.forTask(first)).deleteTask(rest);
    } catch (error) {
      this.deps.notice("warning", `The tasks are deleted, but not their checkpoints: ${errorText(error)}`);
    }
  }
}
