/**
 * What the scripted model server needs from a wire protocol module: answer one request with
 * one script turn, and send an error in the provider's own error shape.
 */
import type { ServerResponse } from "node:http";
import type { FaultKind, RecordedRequest, ScriptTurn } from "./script.js";

export interface WireRequest {
  /** The parsed JSON body of the request. */
  body: Record<string, unknown>;
  /** 1-based count of model requests the server has received, this one included. */
  requestNumber: number;
}

export interface Wire {
  readonly protocol: RecordedRequest["protocol"];
  /** Whether this protocol answers a POST to the path (some paths carry the model, e.g. Gemini's). */
  matches(path: string): boolean;
  /** Answers with a turn; resolves once everything scripted has been written (a stall resolves at once). */
  respond(res: ServerResponse, turn: ScriptTurn, request: WireRequest): Promise<void>;
  /** Sends a non-streaming error in the provider's shape (script exhausted, unreadable body). */
  sendError(res: ServerResponse, status: number, message: string): void;
}

/** Faults sent as a stream: the mid-stream ones (some text, then a break) and the empty answer. */
export type StreamFault = "error_mid_stream" | "drop_connection" | "stall" | "truncated" | "empty";

/** Faults answered with an HTTP error status and a JSON body instead of a stream. */
export type HttpFault = Exclude<FaultKind, StreamFault>;

const STREAM_FAULTS: ReadonlySet<string> = new Set<StreamFault>(["error_mid_stream", "drop_connection", "stall", "truncated", "empty"]);

export function isStreamFault(fault: FaultKind): fault is StreamFault {
  return STREAM_FAULTS.has(fault);
}
