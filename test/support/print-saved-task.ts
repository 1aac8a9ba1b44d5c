/**
 * Prints a saved task's chat and API history as one JSON object, read through TaskStorage itself
 * (the journal replayed), for tests that run outside vitest (the e2e scenarios, in plain node).
 *   node --import tsx test/support/print-saved-task.ts STORAGE_ROOT TASK_ID
 */
import { TaskStorage } from "../../src/core/storage/task-storage";

const [root, taskId] = process.argv.slice(2);
if (!root || !taskId) {
  process.stderr.write("usage: print-saved-task.ts STORAGE_ROOT TASK_ID\n");
  process.exit(64);
}

// No top-level await: this package is not "type": "module", so tsx loads this file as CommonJS.
async function main(storage: TaskStorage): Promise<void> {
  const saved = { chat: await storage.loadChatMessages(), api: await storage.loadApiHistory() };
  process.stdout.write(`${JSON.stringify(saved)}\n`);
}

main(new TaskStorage(root, taskId)).catch((error: unknown) => {
  process.stderr.write(`print-saved-task: ${String(error)}\n`);
  process.exitCode = 1;
});
