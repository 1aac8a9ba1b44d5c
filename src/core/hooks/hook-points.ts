/**
 * The hook points, under Cline's names, and what each one's hook reads on stdin: one JSON object
 * with the fields every hook gets (its name, the task, the workspace roots, a timestamp) and the
 * point's own data under the point's name in camelCase (`preToolUse`, `postToolUse`, …), as Cline
 * lays it out. Shared by the runner and the README's table, which must say the same.
 */
import type { Notice } from "../../shared/notice";

export const HOOK_POINTS = ["TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "PreToolUse", "PostToolUse", "UserPromptSubmit", "PreCompact", "Notification"] as const;

export type HookPoint = (typeof HOOK_POINTS)[number];

/** Each point's own data. */
export interface HookPointData {
  /** Before the first request; `prompt` is the task as the person typed it. */
  TaskStart: { prompt: string; images: number };
  /** A saved task goes on; `prompt` is what the person said with the resumption (may be empty). */
  TaskResume: { prompt: string; wasCompleted: boolean };
  /** The person cancelled the task (or the editor is closing: `reason` "shutdown"). */
  TaskCancel: { reason: "cancelled" | "shutdown" };
  /** The person accepted the result of attempt_completion. */
  TaskComplete: { result: string };
  /** Before a tool runs (before its approval too); `parameters` as the model sent them. */
  PreToolUse: { toolName: string; parameters: Record<string, string> };
  /** After a tool ran, was refused or failed. */
  PostToolUse: { toolName: string; parameters: Record<string, string>; result: string; success: boolean; executionTimeMs: number };
  /** The person sent text: a reply, feedback, a note with an approval (the first task text is TaskStart's and this one's). */
  UserPromptSubmit: { prompt: string; images: number };
  /** Before the conversation is shortened to fit the context window. */
  PreCompact: { reason: string; messages: number };
  /**
   * Tandem notifies: a question waits for the person, or the work ended (shared/notice.ts). Runs
   * whether or not the window is focused; it only observes (OBSERVING_POINTS).
   */
  Notification: Pick<Notice, "event" | "kind" | "message" | "task">;
}

/** Points whose hooks cannot change the task: a cancel or a contextModification they print is ignored (and said). */
export const OBSERVING_POINTS: ReadonlySet<HookPoint> = new Set<HookPoint>(["Notification"]);

export interface HookCommon {
  readonly taskId: string;
  readonly workspaceRoots: readonly string[];
}

/** The one JSON object written to a hook's stdin. */
export function hookInput<P extends HookPoint>(point: P, common: HookCommon, data: HookPointData[P], now = new Date()): string {
  return JSON.stringify({
    hookName: point,
    taskId: common.taskId,
    workspaceRoots: common.workspaceRoots,
    timestamp: now.toISOString(),
    [dataKey(point)]: data,
  });
}

/** `PreToolUse` → `preToolUse`. */
export function dataKey(point: HookPoint): string {
  return point[0]!.toLowerCase() + point.slice(1);
}

export function isHookPoint(name: string): name is HookPoint {
  return (HOOK_POINTS as readonly string[]).includes(name);
}
