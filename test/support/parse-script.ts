/**
 * Checks a script read from JSON (a file, or POST /__script) so a typo fails with a message
 * naming the turn and field, instead of a confusing answer later.
 */
import type { FaultKind, ScriptTurn } from "./script.js";

const FAULT_KINDS: ReadonlySet<string> = new Set<FaultKind>([
  "rate_limit",
  "server_error",
  "overloaded",
  "auth",
  "bad_request",
  "context_window_exceeded",
  "error_mid_stream",
  "drop_connection",
  "stall",
  "empty",
  "truncated",
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkType(where: string, value: unknown, type: "string" | "number" | "object"): void {
  if (value === undefined) return;
  const ok = type === "object" ? isRecord(value) : typeof value === type;
  if (!ok) throw new Error(`${where} must be ${type === "object" ? "an object" : `a ${type}`}, got ${JSON.stringify(value)}`);
}

function checkRequired(where: string, value: unknown, type: "string" | "object"): void {
  if (value === undefined) throw new Error(`${where} is required`);
  checkType(where, value, type);
}

function checkFault(where: string, turn: Record<string, unknown>): void {
  if (typeof turn.fault !== "string" || !FAULT_KINDS.has(turn.fault)) {
    throw new Error(`${where}.fault must be one of ${[...FAULT_KINDS].join(", ")}, got ${JSON.stringify(turn.fault)}`);
  }
  checkType(`${where}.retryAfter`, turn.retryAfter, "number");
  checkType(`${where}.text`, turn.text, "string");
  if (turn.flavor !== undefined && turn.flavor !== "openai" && turn.flavor !== "openrouter" && turn.flavor !== "unverified_org") {
    throw new Error(`${where}.flavor must be "openai", "openrouter" or "unverified_org", got ${JSON.stringify(turn.flavor)}`);
  }
}

function checkAnswer(where: string, turn: Record<string, unknown>): void {
  checkType(`${where}.text`, turn.text, "string");
  checkType(`${where}.redactedThinking`, turn.redactedThinking, "string");
  checkType(`${where}.chunkSize`, turn.chunkSize, "number");
  checkType(`${where}.delayMs`, turn.delayMs, "number");
  checkType(`${where}.stopReason`, turn.stopReason, "string");
  checkType(`${where}.usage`, turn.usage, "object");
  checkType(`${where}.thinking`, turn.thinking, "object");
  if (isRecord(turn.thinking)) {
    checkRequired(`${where}.thinking.text`, turn.thinking.text, "string");
    checkType(`${where}.thinking.signature`, turn.thinking.signature, "string");
  }
  if (turn.toolCalls === undefined) return;
  if (!Array.isArray(turn.toolCalls)) throw new Error(`${where}.toolCalls must be an array`);
  turn.toolCalls.forEach((call: unknown, i) => {
    const at = `${where}.toolCalls[${i}]`;
    if (!isRecord(call)) throw new Error(`${at} must be an object`);
    checkRequired(`${at}.name`, call.name, "string");
    checkRequired(`${at}.input`, call.input, "object");
    checkType(`${at}.id`, call.id, "string");
    checkType(`${at}.argumentsText`, call.argumentsText, "string");
  });
}

/** Accepts a JSON array of turns or `{ "turns": [...] }`; throws a clear error otherwise. */
export function parseScript(value: unknown, source: string): ScriptTurn[] {
  const turns = isRecord(value) ? value.turns : value;
  if (!Array.isArray(turns)) {
    throw new Error(`${source}: a script is a JSON array of turns or { "turns": [...] }`);
  }
  turns.forEach((turn: unknown, i) => {
    const where = `${source}: turn ${i}`;
    if (!isRecord(turn)) throw new Error(`${where} must be an object, got ${JSON.stringify(turn)}`);
    if (turn.kind === "fault") checkFault(where, turn);
    else if (turn.kind === undefined || turn.kind === "answer") checkAnswer(where, turn);
    else throw new Error(`${where}.kind must be "answer" or "fault", got ${JSON.stringify(turn.kind)}`);
  });
  return turns as ScriptTurn[];
}
