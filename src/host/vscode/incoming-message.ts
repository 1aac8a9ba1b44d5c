/**
 * The first check on anything the webview posts: it must be an object whose `type` is one of the
 * protocol's message types. Deeper checks belong to the session that handles each message.
 */
import type { FromWebviewMessage } from "../../shared/protocol";

/** A Record, so adding a message type to the protocol without listing it here fails to compile. */
const KNOWN_TYPES: Readonly<Record<FromWebviewMessage["type"], true>> = {
  ready: true,
  newTask: true,
  answer: true,
  cancelTask: true,
  setMode: true,
  clearTask: true,
  resumeTask: true,
  deleteTask: true,
  deleteTasks: true,
  setFavorite: true,
  searchHistory: true,
  exportTask: true,
  updateAgentSettings: true,
  updateApiSettings: true,
  refreshModels: true,
  testConnection: true,
  setApiKey: true,
  openFile: true,
  compareCheckpoint: true,
  restoreCheckpoint: true,
  editMessage: true,
  checkpointStore: true,
  rules: true,
  mcpAction: true,
  mcpElicitationAnswer: true,
  searchWorkspace: true,
  slashCommands: true,
  editFocusChain: true,
};

export type IncomingCheck = { readonly ok: true; readonly message: FromWebviewMessage } | { readonly ok: false; readonly reason: string };

export function checkIncomingMessage(value: unknown): IncomingCheck {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, reason: `expected an object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}` };
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string") return { ok: false, reason: "the message has no string `type`" };
  if (!Object.hasOwn(KNOWN_TYPES, type)) return { ok: false, reason: `unknown message type "${type.slice(0, 60)}"` };
  return { ok: true, message: value as FromWebviewMessage };
}
