import { describe, expect, it } from "vitest";
import { latestUsage } from "../core/context/context-window";
import type { ApiRequestInfo, ChatMessage } from "./messages";
import { contextTokens, sumUsage } from "./usage";

const request = (ts: number, usage: Pick<ApiRequestInfo, "tokensIn" | "tokensOut" | "cacheReads" | "cacheWrites">): ChatMessage => ({
  ts,
  type: "say",
  say: "api_req_started",
  text: "",
  apiRequest: { ...usage, cost: 0.01 },
});

describe("contextTokens", () => {
  it("counts fresh input, cache reads, cache writes and the answer", () => {
    expect(contextTokens({ tokensIn: 1, cacheReads: 20, cacheWrites: 300, tokensOut: 4000, cost: 9 })).toBe(4321);
  });

  it("is what the context window reads, while the totals keep 'tokens in' to the fresh input", () => {
    const chat = [request(1, { tokensIn: 100, tokensOut: 10, cacheReads: 0, cacheWrites: 50 }), request(2, { tokensIn: 5, tokensOut: 20, cacheReads: 150, cacheWrites: 0 })];
    expect(latestUsage(chat)).toBe(175);
    expect(sumUsage(chat)).toMatchObject({ tokensIn: 105, tokensOut: 30, cacheReads: 150, cacheWrites: 50 });
  });
});
