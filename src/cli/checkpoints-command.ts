/**
 * `tandem checkpoints list|restore`: a saved task's checkpoints, for scripts and for people
 * without VS Code. Checkpoint 0 is the workspace as the task found it; 1, 2, … the rounds that
 * changed files. Restoring the task rewrites its saved chat and conversation to end at that
 * checkpoint, so `tandem --resume` goes on from there.
 */
import { checkpointOf, describeRestore, rewound, type CheckpointService } from "../core/controller/checkpoints";
import type { TaskHistory } from "../core/storage/task-history";
import { TaskStorage } from "../core/storage/task-storage";
import type { ChatMessage } from "../shared/messages";
import { sumUsage } from "../shared/usage";
import type { CliAction } from "./args";
import { findSavedTask } from "./saved-tasks";

type CheckpointsAction = Extract<CliAction, { kind: "checkpoints_list" | "checkpoints_restore" }>;

export interface CheckpointsCommandDeps {
  readonly history: TaskHistory;
  readonly storageRoot: string;
  readonly service: CheckpointService;
  print(text: string): void;
}

export async function runCheckpointsCommand(action: CheckpointsAction, deps: CheckpointsCommandDeps): Promise<void> {
  const unavailable = await deps.service.unavailable();
  if (unavailable) throw new Error(unavailable);
  const item = await findSavedTask(deps.history, action.taskId, deps.storageRoot);
  const storage = new TaskStorage(deps.storageRoot, item.id);
  const chat = await storage.loadChatMessages();
  const points = chat.filter((message) => message.checkpoint);
  if (points.length === 0) throw new Error(`Task ${item.id} has no checkpoints (it ran with them off, or before git could save one).`);
  const store = await deps.service.forTask(item.id);
  if (action.kind === "checkpoints_list") {
    deps.print(`Checkpoints of task ${item.id} (restore one with: tandem checkpoints restore N --scope files|task|both --task ${item.id}):`);
    for (const [index, point] of points.entries()) {
      const previous = points[index - 1];
      const changed = previous ? (await store.changes(checkpointOf(chat, previous.ts).hash, checkpointOf(chat, point.ts).hash)).map((c) => c.path) : [];
      deps.print(`${String(index).padStart(3)}  ${time(point)}  ${index === 0 ? "task start" : `${changed.length} changed: ${changed.join(", ")}`}`);
    }
    return;
  }
  const point = points[action.index];
  if (!point) throw new Error(`Task ${item.id} has checkpoints 0 to ${points.length - 1}; there is no ${action.index}.`);
  if (action.scope !== "task") deps.print(describeRestore(await store.restoreFiles(checkpointOf(chat, point.ts).hash)));
  if (action.scope === "files") return;
  const kept = rewound({ chat, api: await storage.loadApiHistory() }, point.ts);
  await storage.saveApiHistory(kept.api);
  await storage.saveChatMessages(kept.chat);
  await deps.history.amend(item.id, { status: "interrupted", usage: sumUsage(kept.chat) });
  deps.print(`Task ${item.id} now ends at checkpoint ${action.index}; go on with: tandem --resume ${item.id}`);
}

function time(message: ChatMessage): string {
  return new Date(message.ts).toISOString().slice(0, 16).replace("T", " ");
}
