/**
 * One whole Task (the real Anthropic SDK against the scripted model server, real tools in a temp
 * workspace, YOLO) saving to a given TaskStorage: what the storage tests, the crash child and
 * `bench/storage.bench.ts` run. The Task is built here rather than by the Controller so a test can
 * hand it a storage that counts what it writes (or, in the benchmark, the old full rewrite).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildApiHandler } from "../../src/api";
import type { ApiMessage } from "../../src/api/types";
import type { TaskStorage } from "../../src/core/storage/task-storage";
import { Task, type TaskOutcome } from "../../src/core/task";
import { TaskScope } from "../../src/core/task/task-scope";
import type { ChatListener } from "../../src/core/task/message-state";
import { TOOLS } from "../../src/core/task/tools/registry";
import { NodeHost } from "../../src/host/node/node-host";
import type { ChatMessage } from "../../src/shared/messages";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";
import type { ScriptTurn } from "../support/script";

/** Small rounds as a real task has them: a line of prose and one quick tool, then completion. */
export function smallRounds(rounds: number): ScriptTurn[] {
  const turns: ScriptTurn[] = [];
  for (let i = 0; i < rounds; i++) turns.push({ text: roundText(i), usage: { inputTokens: 1_200 + i, outputTokens: 40 } });
  turns.push({ text: "All done.\n<attempt_completion>\n<result>Finished the rounds.</result>\n</attempt_completion>" });
  return turns;
}

/** The files the rounds read and list. */
export async function prepareWorkspace(workspace: string): Promise<void> {
  await writeFile(join(workspace, "notes.txt"), "Keep rounds short.\nOne tool per round.\n");
  await mkdir(join(workspace, "out"), { recursive: true });
}

export function roundText(i: number): string {
  const prose = `Round ${i}: checking the notes once more.`;
  if (i % 3 === 0) return `${prose}\n<read_file>\n<path>notes.txt</path>\n</read_file>`;
  if (i % 3 === 1) return `${prose}\n<write_to_file>\n<path>out/f${i % 7}.txt</path>\n<content>\nline ${i}\n</content>\n</write_to_file>`;
  return `${prose}\n<list_files>\n<path>out</path>\n</list_files>`;
}

export interface StorageTaskOptions {
  anthropicBaseUrl: string;
  workspace: string;
  storage: TaskStorage;
  /** Resume this saved task instead of starting a new one. */
  resume?: { chat: readonly ChatMessage[]; api: readonly ApiMessage[] };
  /** Hears every chat event (after the message state has recorded it). */
  listener?: Partial<ChatListener>;
  /** Called with the Task once it exists, before it starts. */
  onTask?: (task: Task) => void;
}

/** Runs the task to its end, answering yes to every question (resume, completion). */
export async function runStorageTask(options: StorageTaskOptions): Promise<{ outcome: TaskOutcome; task: Task }> {
  const settings = { ...DEFAULT_AGENT_SETTINGS, yolo: true };
  const host = new NodeHost(options.workspace);
  const answered = new Set<number>();
  const hear = (message: ChatMessage) => {
    if (message.type !== "ask" || message.partial || answered.has(message.ts)) return;
    answered.add(message.ts);
    queueMicrotask(() => task.answer(message.ts, { type: "yes" }));
  };
  const extra = options.listener ?? {};
  // The loop alone, with no participant: what the storage sees is the Task's own writing.
  const scope = new TaskScope({
    taskId: options.storage.taskId,
    api: buildApiHandler({ provider: "anthropic", apiKey: "test-key", baseUrl: options.anthropicBaseUrl, modelId: "claude-sonnet-5-5" }),
    host,
    settings: () => settings,
    storage: options.storage,
    listener: {
      onMessageAdded: (m) => (extra.onMessageAdded?.(m), hear(m)),
      onMessageUpdated: (m) => (extra.onMessageUpdated?.(m), hear(m)),
      onMessagesRemoved: (timestamps) => extra.onMessagesRemoved?.(timestamps),
      onMessagesLoaded: (messages) => extra.onMessagesLoaded?.(messages),
    },
  });
  const task: Task = new Task(scope, { tools: TOOLS, prompt: { cwd: options.workspace, os: "Linux", shell: "/bin/bash" }, partialUpdateIntervalMs: 5 });
  options.onTask?.(task);
  const outcome = await (options.resume ? task.resumeTask(options.resume) : task.startTask("Work through the rounds."));
  return { outcome, task };
}
