/** What the Controller hands a Task: its model, host, tools, guard, settings and where it saves. */
import type { ApiHandler } from "../../api/types";
import type { HostBridge } from "../../host/bridge";
import type { AgentSettings } from "../../shared/settings";
import type { CommandSandbox } from "../sandbox/command-sandbox";
import type { TaskStorage } from "../storage/task-storage";
import type { RetryOptions } from "./api-request-retrier";
import type { ChatListener } from "./message-state";
import type { PathGuard, ToolDefinition } from "./tools/types";

/** Saves the workspace before the next round (checkpoints plug in here later). */
export interface CheckpointHook {
  save(round: number): Promise<void>;
}

export interface TaskParams {
  taskId: string;
  api: ApiHandler;
  host: HostBridge;
  tools: Readonly<Record<string, ToolDefinition>>;
  /** Paths tools must not touch; none ignores nothing. */
  ignore?: PathGuard;
  /** The OS sandbox commands run in; none runs them unconfined. */
  commandSandbox?: CommandSandbox;
  /** Read on every decision, so a settings change applies to the running task. */
  settings: () => AgentSettings;
  systemPrompt: () => string;
  listener: ChatListener;
  storage?: TaskStorage;
  checkpoints?: CheckpointHook;
  retry?: Partial<RetryOptions>;
  /** Interval between partial UI updates of streamed text (first token and tool blocks go at once). */
  partialUpdateIntervalMs?: number;
}
