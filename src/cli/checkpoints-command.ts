/**
 * `tandem checkpoints list|restore`: a saved task's checkpoints, for scripts and for people
 * without VS Code. Checkpoint 0 is the workspace as the task found it; 1, 2, … the rounds that
 * changed files. Restoring the task rewrites its saved chat and conversation to end at that
 * checkpoint, so `tandem --resume` goes on from there.
 *
 * A bundle of its own (dist/cli-checkpoints.js), which the launcher loads instead of the agent's:
 * a restore from the terminal pays for the checkpoint code only, not for compiling the agent.
 */
import { gitCheckpoints } from "../core/checkpoints/checkpoint-service";
import { checkpointOf, describeRestore, rewound, type CheckpointService } from "../core/controller/checkpoints";
import { TaskHistory } from "../core/storage/task-history";
import { TaskStorage } from "../core/storage/task-storage";
import { errorText } from "../core/util/error-text";
import type { ChatMessage } from "../shared/messages";
import { sumUsage } from "../shared/usage";
import type { CliAction, CliOptions } from "./args";
import { EXIT } from "./exit-codes";
import { findSavedTask, storageRootFor } from "./saved-tasks";

export type CheckpointsAction = Extract<CliAction, { kind: "checkpoints_list" | "checkpoints_restore" }>;

interface CheckpointsCommandDeps {
  readonly history: TaskHistory;
  readonly storageRoot: string;
  readonly service: CheckpointService;
  print(text: string): void;
}

const note = (text: string) => process.stderr.write(`${text}\n`);

/** The command as the launcher runs it, on the checked command line: its exit code. */
export async function runCheckpointsCli(action: CheckpointsAction, cli: Pick<CliOptions, "storage" | "cwd">): Promise<number> {
  try {
    // The arguments refuse --no-storage with `checkpoints`; this says it again for any other caller.
    const storageRoot = storageRootFor(cli.storage, cli.cwd, process.env);
    if (!storageRoot) throw new Error("Checkpoints need saved tasks: leave out --no-storage.");
    const history = new TaskHistory(storageRoot, (error) => note(`tandem: ${errorText(error)}`));
    await runCheckpointsCommand(action, { history, storageRoot, service: gitCheckpoints(storageRoot, () => [{ name: "", path: cli.cwd }]), print: (text) => process.stdout.write(`${text}\n`) });
    return EXIT.completed;
  } catch (error) {
    note(`tandem: ${errorText(error)}`);
    return EXIT.failed;
  }
}

async function runCheckpointsCommand(action: CheckpointsAction, deps: CheckpointsCommandDeps): Promise<void> {
  // git is asked, the task found and its store opened side by side; git's own problem is told first.
  const lookup = findSavedTask(deps.history, action.taskId, deps.storageRoot);
  lookup.catch(() => undefined);
  const unavailable = await deps.service.unavailable();
  if (unavailable) throw new Error(unavailable);
  const item = await lookup;
  const storage = new TaskStorage(deps.storageRoot, item.id);
  const opening = deps.service.forTask(item.id);
  opening.catch(() => undefined);
  const chat = await storage.loadChatMessages();
  const points = chat.filter((message) => message.checkpoint);
  if (points.length === 0) throw new Error(`Task ${item.id} has no checkpoints (it ran with them off, or before git could save one).`);
  const store = await opening;
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
