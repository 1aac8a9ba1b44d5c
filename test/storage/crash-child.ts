/**
 * The process `crash.test.ts` kills: starts as Tandem starts (removing leftover temp files), then
 * runs (or resumes) a real task of small rounds against its own scripted model server, saving in
 * the given folder. Every chat message it saw complete, and the API history's length at that
 * moment, go to a log with a synchronous append: the message state records a change before it
 * announces it, so at any kill the log holds no more than what the task had recorded.
 *
 *   CRASH_RUN=<n> node crash-child.js <storageRoot> <workspace> <log> <new|resume> <rounds> <compactFactor> <slackBytes>
 * "resume" starts a new task when nothing was saved yet (a kill before the first message).
 */
import { appendFileSync } from "node:fs";
import { removeLeftoverTempFiles } from "../../src/core/storage/leftover-temp-files";
import { TaskStorage } from "../../src/core/storage/task-storage";
import type { Task } from "../../src/core/task";
import type { ChatMessage } from "../../src/shared/messages";
import { startScriptedModelServer } from "../support/scripted-model-server";
import { CRASH_TASK_ID, type CrashLogEntry } from "./crash-log";
import { runStorageTask, smallRounds } from "./storage-task";

async function main(): Promise<void> {
  const [root, workspace, log, mode, rounds, factor, slack] = process.argv.slice(2) as [string, string, string, string, string, string, string];
  await removeLeftoverTempFiles([root, workspace]);
  const server = await startScriptedModelServer({ turns: smallRounds(Number(rounds)) });
  const storage = new TaskStorage(root, CRASH_TASK_ID, { compactFactor: Number(factor), slackBytes: Number(slack) });
  const saved = mode === "resume" ? { chat: await storage.loadChatMessages(), api: await storage.loadApiHistory() } : undefined;
  const resume = saved && saved.chat.length > 0 ? saved : undefined;
  const run = Number(process.env.CRASH_RUN ?? 0);
  let task: Task | undefined;
  const api = () => task?.messages.apiHistory.length ?? 0;
  const write = (entry: CrashLogEntry) => appendFileSync(log, `${JSON.stringify(entry)}\n`);
  const seen = (message: ChatMessage) => message.partial || write({ run, message, api: api() });
  process.stdout.write("started\n");
  const { outcome } = await runStorageTask({
    anthropicBaseUrl: server.anthropicBaseUrl,
    workspace,
    storage,
    resume,
    onTask: (created) => (task = created),
    listener: {
      onMessageAdded: seen,
      onMessageUpdated: seen,
      onMessagesRemoved: (removed) => write({ run, removed }),
      onMessagesLoaded: (loaded) => write({ run, loaded, api: api() }),
    },
  });
  await server.close();
  process.stdout.write(`outcome ${outcome}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`crash-child: ${String(error)}\n`);
    process.exit(1);
  },
);
