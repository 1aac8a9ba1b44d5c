import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ApiMessage } from "../../api/types";
import type { ChatMessage } from "../../shared/messages";
import { writeFileAtomic } from "./atomic-write";

const CHAT_FILE = "ui_messages.json";
const API_FILE = "api_conversation_history.json";

/**
 * One folder per task under `<root>/tasks/<taskId>/`, holding the chat record and the API
 * conversation history as JSON. Every write replaces the file atomically, so a crash at any
 * moment leaves the previous complete version readable.
 */
export class TaskStorage {
  readonly dir: string;

  constructor(root: string, readonly taskId: string) {
    this.dir = join(root, "tasks", taskId);
  }

  async saveChatMessages(messages: readonly ChatMessage[]): Promise<void> {
    await this.writeJson(CHAT_FILE, messages);
  }

  async saveApiHistory(history: readonly ApiMessage[]): Promise<void> {
    await this.writeJson(API_FILE, history);
  }

  async loadChatMessages(): Promise<ChatMessage[]> {
    return (await this.readJson<ChatMessage[]>(CHAT_FILE)) ?? [];
  }

  async loadApiHistory(): Promise<ApiMessage[]> {
    return (await this.readJson<ApiMessage[]>(API_FILE)) ?? [];
  }

  private async writeJson(name: string, value: unknown): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeFileAtomic(join(this.dir, name), JSON.stringify(value));
  }

  private async readJson<T>(name: string): Promise<T | undefined> {
    let text: string;
    try {
      text = await readFile(join(this.dir, name), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new Error(`Task history file ${join(this.dir, name)} is not valid JSON: ${(error as Error).message}`);
    }
  }
}
