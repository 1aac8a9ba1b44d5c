/** Plain data the webview tests build host messages from. */
import { questionFor } from "../../../src/core/task/question-answers";
import type { AskKind, AskMessage, ChatMessage, SayKind, SayMessage } from "../../../src/shared/messages";
import type { OpenQuestion, WebviewSettings, WebviewState } from "../../../src/shared/protocol";
import type { SandboxStatus } from "../../../src/shared/sandbox-status";
import { DEFAULT_AGENT_SETTINGS } from "../../../src/shared/settings";

export function makeSettings(overrides: Partial<WebviewSettings> = {}): WebviewSettings {
  return {
    agent: { ...DEFAULT_AGENT_SETTINGS, autoApproval: { ...DEFAULT_AGENT_SETTINGS.autoApproval } },
    api: { provider: "anthropic", modelId: "claude-test" },
    hasApiKey: { anthropic: false, openai: false },
    needsApiKey: false,
    missingFields: [],
    models: [
      { provider: "anthropic", id: "claude-test", contextWindow: 200_000, maxOutputTokens: 8192, inputPrice: 3, outputPrice: 15, cacheWritePrice: 3.75, cacheReadPrice: 0.3 },
      { provider: "openai", id: "gpt-test", contextWindow: 128_000, maxOutputTokens: 4096, inputPrice: 2.5, outputPrice: 10, cacheWritePrice: 0, cacheReadPrice: 1.25 },
    ],
    model: { id: "claude-test", isDefault: false, catalogueId: "claude-test" },
    contextWindow: 200_000,
    ...overrides,
  };
}

export function makeState(overrides: Partial<WebviewState> = {}): WebviewState {
  return { task: undefined, messages: [], question: undefined, running: false, settings: makeSettings(), history: [], mcp: { available: true, servers: [], problems: [], elicitations: [] }, mode: "act", restoring: false, workspace: "/work/project", ...overrides };
}

export const TASK = { id: "task-1", text: "Fix the failing build", startedAt: 1_000 };

export function say(say: SayKind, ts: number, extra: Partial<SayMessage> = {}): SayMessage {
  return { type: "say", say, ts, ...extra };
}

export function ask(ask: AskKind, ts: number, extra: Partial<AskMessage> = {}): AskMessage {
  return { type: "ask", ask, ts, ...extra };
}

/** A state with a running task showing `messages`, asking nothing. */
export function runningWith(...messages: ChatMessage[]): WebviewState {
  return makeState({ task: TASK, running: true, messages: [say("task", 1, { text: TASK.text }), ...messages] });
}

/** The question the host opens for an ask row, with the answers the host's own table gives it. */
export function questionOf(row: AskMessage): OpenQuestion {
  return questionFor(row.ts, row.ask, row.tool);
}

/** A running task whose last row `row` asks its question, open. */
export function asking(...messages: [...ChatMessage[], AskMessage]): WebviewState {
  const row = messages.at(-1) as AskMessage;
  return { ...runningWith(...messages), question: questionOf(row) };
}

/** The sandbox as the host reports it: on with bubblewrap unless overridden. */
export function makeSandbox(overrides: Partial<SandboxStatus> = {}): SandboxStatus {
  return {
    mode: "auto",
    available: true,
    active: true,
    refusesCommands: false,
    technology: "bubblewrap",
    network: "allowList",
    allowedDomains: ["registry.npmjs.org", "pypi.org"],
    writableFolders: [],
    deniedReads: ["~/.ssh", "~/.aws"],
    ...overrides,
  };
}

/** A machine without bubblewrap, with the reason the host gives. */
export const NO_BWRAP = "bubblewrap (bwrap) is not installed: apt-get install bubblewrap socat.";
export const unavailableSandbox = (overrides: Partial<SandboxStatus> = {}) =>
  makeSandbox({ available: false, active: false, technology: undefined, reason: NO_BWRAP, ...overrides });
