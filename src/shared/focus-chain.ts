/**
 * The focus chain: the task's checklist, which the model keeps (the `task_progress` parameter of
 * its tool calls) and the person may edit in the panel. Plain data and pure helpers, shared by the
 * core, the panel and the CLI.
 */

export interface FocusChainItem {
  readonly text: string;
  readonly done: boolean;
}

/** One version of the checklist, as a `task_progress` chat row carries it. */
export interface FocusChainInfo {
  readonly items: readonly FocusChainItem[];
  /** Who wrote this version: the model (task_progress) or the person (the panel). */
  readonly by: "model" | "person";
}

/** The list as Markdown, the form the model writes and reads. */
export function focusChainMarkdown(items: readonly FocusChainItem[]): string {
  return items.map((item) => `- [${item.done ? "x" : " "}] ${item.text}`).join("\n");
}

/** "3/7": ticked of all. */
export function focusChainProgress(items: readonly FocusChainItem[]): string {
  return `${items.filter((item) => item.done).length}/${items.length}`;
}
