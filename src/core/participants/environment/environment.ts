/**
 * The environment details' place in the loop: before each request, last of the participants, the
 * `<environment_details>` block (core/context/environment-details.ts) joins the user content about
 * to be sent, so the last user message of every request carries it, and the stored history holds
 * it as it was sent. The chat never shows it: it is API content, not a chat row.
 *
 * What it reads each round costs what changed: the editor's lists, the terminals' new output,
 * the background commands' news, the last request row's usage. The listing of each workspace
 * folder goes only with this Task's first request (a resumed task lists again: the files may have changed).
 */
import type { ContentBlock } from "../../../api/types";
import type { HostBridge, TerminalActivity } from "../../../host/bridge";
import type { ChatMessage } from "../../../shared/messages";
import { contextTokens } from "../../../shared/usage";
import { EditorFiles } from "../../context/editor-files";
import { buildEnvironmentDetails, isEnvironmentDetails, type EnvironmentFacts } from "../../context/environment-details";
import { TerminalNews } from "../../context/terminal-news";
import { workspaceListings } from "../../context/workspace-listing";
import type { PathGuard } from "../../ignore/path-guard";
import type { RequestDraft, TaskParticipant } from "../../task/participant";
import type { TaskScope } from "../../task/task-scope";
import { errorText } from "../../util/error-text";
import { modeTexts } from "../../prompts/mode-texts";
import type { WorkspaceRoots } from "../../util/workspace-roots";

export interface EnvironmentInLoopDeps {
  readonly host: HostBridge;
  /** The task's workspace folders: each is listed, and editor files are named as the model writes them. */
  readonly roots: WorkspaceRoots;
  readonly guard: PathGuard;
  readonly signal: AbortSignal;
  /** The background commands' news since the last request (BackgroundCommands.takeReport). */
  takeBackgroundNews(): string | undefined;
  /** The chat, whose last request row holds the previous request's usage. */
  chat(): readonly ChatMessage[];
  /** The model's context window, in tokens. */
  contextWindow(): number;
  /** The agent's mode, as the block says it. */
  mode?(): string | undefined;
  /** Told when the editor or the terminals could not be read (the request goes without them). */
  warn(text: string): void;
  now?(): Date;
}

/** The participant: the scope's editor, terminals, background commands, usage and mode, into each request's last block. */
export class EnvironmentDetails implements TaskParticipant {
  readonly name = "environment";
  private readonly builder: EnvironmentInLoop;

  constructor(scope: TaskScope) {
    this.builder = new EnvironmentInLoop({
      host: scope.host,
      roots: scope.roots,
      guard: scope.guard,
      signal: scope.signal,
      takeBackgroundNews: () => scope.background.takeReport(),
      chat: () => scope.messages.chatMessages,
      contextWindow: () => scope.api.getModel().info.contextWindow,
      mode: () => modeTexts.environment(scope.mode.current),
      warn: (text) => scope.host.window.notify("warning", text),
    });
  }

  async beforeRequest(draft: RequestDraft): Promise<undefined> {
    draft.add(await this.builder.details(draft.content), { replaces: supersededDetails });
    return undefined;
  }
}

/** Builds the block from what it is given (the participant's scope, or a benchmark's fakes). */
export class EnvironmentInLoop {
  private listed = false;
  private readonly terminals = new TerminalNews();
  private readonly files: EditorFiles;
  /** Warnings already given, so a broken source is reported once, not every round. */
  private readonly warned = new Set<string>();

  constructor(private readonly deps: EnvironmentInLoopDeps) {
    this.files = new EditorFiles(deps.roots, deps.guard);
  }

  /** The block for the request about to go, as a text block to append to `content`. */
  async details(content: readonly ContentBlock[]): Promise<ContentBlock> {
    const { deps } = this;
    const backgroundNews = deps.takeBackgroundNews();
    const editor = deps.host.editor;
    const visible = this.files.shown(this.read("the visible editors", () => editor?.visibleFiles() ?? []));
    const shownVisible = new Set(visible);
    const tabs = this.files.shown(this.read("the open tabs", () => editor?.openTabs() ?? [])).filter((f) => !shownVisible.has(f));
    const activity = this.read<readonly TerminalActivity[]>("the terminals", () => deps.host.terminal.activity?.() ?? []);
    const alreadySent = [...content.map(textOf), backgroundNews ?? ""].join("\n");
    const facts: EnvironmentFacts = {
      visibleFiles: visible,
      otherTabs: tabs,
      terminals: this.terminals.take(activity, alreadySent),
      ...(backgroundNews ? { backgroundNews } : {}),
      now: deps.now?.() ?? new Date(),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || undefined,
      ...optional("mode", deps.mode?.()),
      ...optional("usage", this.usage()),
      ...optional("listings", await this.listings()),
    };
    return { type: "text", text: buildEnvironmentDetails(facts) };
  }

  private async listings(): Promise<EnvironmentFacts["listings"]> {
    if (this.listed) return undefined;
    this.listed = true;
    return workspaceListings(this.deps.roots, this.deps.guard, this.deps.signal);
  }

  /** The previous request's input, cache and output tokens: what the next one starts from. */
  private usage(): EnvironmentFacts["usage"] {
    const chat = this.deps.chat();
    for (let i = chat.length - 1; i >= 0; i--) {
      const message = chat[i];
      if (message?.type !== "say" || message.say !== "api_req_started") continue;
      const info = message.apiRequest;
      const used = info ? contextTokens(info) : 0;
      // A request that reported nothing (failed before its usage came) says nothing of the size.
      if (used > 0) return { used, window: this.deps.contextWindow() };
    }
    return undefined;
  }

  private read<T>(what: string, get: () => T): T | [] {
    try {
      return get();
    } catch (error) {
      const text = `Could not read ${what} for the environment details: ${errorText(error)}`;
      if (!this.warned.has(text)) {
        this.warned.add(text);
        this.deps.warn(text);
      }
      return [];
    }
  }
}

/** An older block in the message the new one joins (a resumed request that got no answer): the new one replaces it. */
export function supersededDetails(block: ContentBlock): boolean {
  return block.type === "text" && isEnvironmentDetails(block.text);
}

function textOf(block: ContentBlock): string {
  if (block.type === "text") return block.text;
  if (block.type !== "tool_result") return "";
  return typeof block.content === "string" ? block.content : block.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
