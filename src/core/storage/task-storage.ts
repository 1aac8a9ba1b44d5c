import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ApiMessage } from "../../api/types";
import type { ChatMessage } from "../../shared/messages";
import { AGENT_MODES, type AgentMode } from "../../shared/settings";
import { writeFileAtomic, type WriteStats } from "./atomic-write";
import { taskFolder } from "./paths";
import { FileJournal, type HistoryJournal } from "./journal";
import { encodeOp, parseOps, replay } from "./journal-format";

/** Each history is a journal (`.jsonl`); older versions kept it as one JSON array (`.json`). */
const CHAT = { journal: "ui_messages.jsonl", legacy: "ui_messages.json" };
const API = { journal: "api_conversation_history.jsonl", legacy: "api_conversation_history.json" };
const chatKey = (message: ChatMessage) => message.ts;
/** What a task is beside its histories: its Plan/Act mode. */
const METADATA = "task_metadata.json";
/** Whole results kept for the person (keepWhole). */
const KEPT = "kept";

export interface TaskStorageOptions {
  /** Counts what the journals write (benchmarks, tests). */
  stats?: WriteStats;
  /** When to compact (tests): see `FileJournalOptions`. */
  compactFactor?: number;
  slackBytes?: number;
}

/**
 * One folder per task under `<root>/tasks/<taskId>/`, holding the chat record and the API
 * conversation history, each as a journal of changes (`journal.ts`): a kill at any moment leaves
 * every change that was recorded readable. A task saved by an older version (plain JSON) loads
 * as it was and moves to the journal at its first compaction.
 */
export class TaskStorage {
  readonly dir: string;

  constructor(
    root: string,
    readonly taskId: string,
    private readonly options: TaskStorageOptions = {},
  ) {
    this.dir = taskFolder(root, taskId);
  }

  loadChatMessages(): Promise<ChatMessage[]> {
    return this.load(CHAT, chatKey);
  }

  loadApiHistory(): Promise<ApiMessage[]> {
    return this.load(API);
  }

  /** Saves a whole chat at once, replacing what was saved (a task imported or made by a test). */
  saveChatMessages(messages: readonly ChatMessage[]): Promise<void> {
    return this.saveWhole(CHAT, messages);
  }

  saveApiHistory(history: readonly ApiMessage[]): Promise<void> {
    return this.saveWhole(API, history);
  }

  /**
   * A whole result the model got only a part of (an MCP answer cut to size), kept for the person
   * to open; it goes with the task. `name` says whose (e.g. "mcp-weather-forecast"). Returns the file's path.
   */
  async keepWhole(name: string, text: string): Promise<string> {
    const folder = join(this.dir, KEPT);
    await mkdir(folder, { recursive: true });
    const file = join(folder, `${name.replace(/[^\w.-]+/g, "_").slice(0, 80)}-${Date.now()}.txt`);
    await writeFileAtomic(file, text, { stats: this.options.stats });
    return file;
  }

  /** The task's Plan/Act mode, written whole and atomically (it changes rarely). */
  async saveMode(mode: AgentMode): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeFileAtomic(join(this.dir, METADATA), JSON.stringify({ mode }), { stats: this.options.stats });
  }

  /** The saved mode; undefined for a task saved before modes existed. A damaged file is an error naming it. */
  async loadMode(): Promise<AgentMode | undefined> {
    const file = join(this.dir, METADATA);
    const text = await readIfExists(file);
    if (text === undefined) return undefined;
    let mode: unknown;
    try {
      mode = (JSON.parse(text) as { mode?: unknown } | null)?.mode;
    } catch (error) {
      throw new Error(`Task file ${file} is not valid JSON: ${(error as Error).message}`);
    }
    const known = AGENT_MODES.find((m) => m === mode);
    if (!known) throw new Error(`Task file ${file} names no mode Tandem knows (${JSON.stringify(mode)}); expected ${AGENT_MODES.join(" or ")}.`);
    return known;
  }

  /** Where the chat's changes are recorded; `current` is the chat as it is now. */
  chatJournal(current: () => readonly ChatMessage[], onError: (error: unknown) => void): HistoryJournal<ChatMessage> {
    return this.journal(CHAT, current, onError, chatKey);
  }

  apiJournal(current: () => readonly ApiMessage[], onError: (error: unknown) => void): HistoryJournal<ApiMessage> {
    return this.journal(API, current, onError);
  }

  private journal<T>(names: typeof CHAT, current: () => readonly T[], onError: (error: unknown) => void, keyOf?: (item: T) => number): HistoryJournal<T> {
    return new FileJournal<T>({
      ...this.options,
      keyOf,
      file: join(this.dir, names.journal),
      legacyFile: join(this.dir, names.legacy),
      current,
      onError,
    });
  }

  private async saveWhole<T>(names: typeof CHAT, items: readonly T[]): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeFileAtomic(join(this.dir, names.journal), encodeOp<T>({ reset: items }), { stats: this.options.stats });
  }

  private async load<T>(names: typeof CHAT, keyOf?: (item: T) => number): Promise<T[]> {
    const file = join(this.dir, names.journal);
    const text = await readIfExists(file);
    const ops = text === undefined ? [] : parseOps<T>(text, file);
    const first = ops[0];
    // A journal that starts with the whole list does not need what came before it.
    const base = first && "reset" in first ? [] : await this.readLegacy<T>(names.legacy);
    try {
      return replay(base, ops, keyOf);
    } catch (error) {
      throw new Error(`Task history file ${file} is damaged: ${(error as Error).message}`);
    }
  }

  private async readLegacy<T>(name: string): Promise<T[]> {
    const file = join(this.dir, name);
    const text = await readIfExists(file);
    if (text === undefined) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`Task history file ${file} is not valid JSON: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed)) throw new Error(`Task history file ${file} does not hold a list.`);
    return parsed as T[];
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
