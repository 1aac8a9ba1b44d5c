/**
 * Helpers for the API tests: drain a handler's stream into its chunks and the error it
 * ended with, and assemble native tool calls from their fragments.
 */
import { expect } from "vitest";
import { ApiError, type ApiErrorKind } from "../../src/api/errors.js";
import type { ApiStream, ApiStreamChunk, ApiStreamUsageChunk } from "../../src/api/types.js";

export interface Drained {
  chunks: ApiStreamChunk[];
  error?: unknown;
  text: string;
  reasoning: string;
}

export async function drain(stream: ApiStream, onChunk?: (chunk: ApiStreamChunk) => void): Promise<Drained> {
  const chunks: ApiStreamChunk[] = [];
  let error: unknown;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      onChunk?.(chunk);
    }
  } catch (caught) {
    error = caught;
  }
  return {
    chunks,
    error,
    text: chunks.map((c) => (c.type === "text" ? c.text : "")).join(""),
    reasoning: chunks.map((c) => (c.type === "reasoning" ? c.reasoning : "")).join(""),
  };
}

/** Asserts the stream failed with an ApiError of `kind` and returns it. */
export function expectApiError(drained: Drained, kind: ApiErrorKind): ApiError {
  expect(drained.error, `expected an ApiError "${kind}"`).toBeInstanceOf(ApiError);
  const error = drained.error as ApiError;
  expect(error.kind, error.message).toBe(kind);
  return error;
}

export interface AssembledCall {
  id?: string;
  name?: string;
  arguments: string;
}

export function assembleToolCalls(chunks: readonly ApiStreamChunk[]): AssembledCall[] {
  const calls: AssembledCall[] = [];
  for (const chunk of chunks) {
    if (chunk.type !== "tool_calls") continue;
    const call = (calls[chunk.index] ??= { arguments: "" });
    if (chunk.id) call.id = chunk.id;
    if (chunk.name) call.name = chunk.name;
    call.arguments += chunk.argumentsDelta;
  }
  return calls;
}

export function totalUsage(chunks: readonly ApiStreamChunk[]): Required<Omit<ApiStreamUsageChunk, "type">> {
  const total = { inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, totalCost: 0 };
  for (const chunk of chunks) {
    if (chunk.type !== "usage") continue;
    total.inputTokens += chunk.inputTokens;
    total.outputTokens += chunk.outputTokens;
    total.cacheWriteTokens += chunk.cacheWriteTokens ?? 0;
    total.cacheReadTokens += chunk.cacheReadTokens ?? 0;
    total.totalCost += chunk.totalCost ?? 0;
  }
  return total;
}

/** Milliseconds `promise` took to settle. */
export async function timeToSettle(promise: Promise<unknown>): Promise<number> {
  const start = performance.now();
  await promise;
  return performance.now() - start;
}
