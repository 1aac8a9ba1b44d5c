import { describe, expect, it } from "vitest";
import type { ApiMessage } from "../../api/types";
import type { ChatMessage } from "../../shared/messages";
import { CONDENSE_THRESHOLD, contextLimit, estimateTokens, latestUsage } from "./context-window";

describe("estimateTokens", () => {
  it("counts four characters of the content's JSON a token, rounded up, over every message", () => {
    // "x" * 398 in quotes is 400 characters: 100 tokens, not 1,600 (a count 16 times too high
    // would condense or truncate a conversation that fits).
    expect(estimateTokens([{ role: "user", content: "x".repeat(398) }])).toBe(100);
    expect(estimateTokens([{ role: "user", content: "abcd" }]), '"abcd" is 6 characters: 1.5 tokens, rounded up').toBe(2);
    const two: ApiMessage[] = [
      { role: "user", content: "x".repeat(198) },
      { role: "assistant", content: [{ type: "text", text: "hello" }] },
    ];
    expect(estimateTokens(two)).toBe(Math.ceil((200 + JSON.stringify(two[1]?.content).length) / 4));
    expect(estimateTokens([])).toBe(0);
  });
});

describe("contextLimit", () => {
  it("lets a request fill 80 % of the window when the output limit is small", () => {
    expect(CONDENSE_THRESHOLD).toBe(0.8);
    expect(contextLimit({ contextWindow: 1001, maxOutputTokens: 10 }), "rounded down to whole tokens").toBe(800);
  });

  it("keeps the model's output limit free when that is stricter, but never more than half the window", () => {
    expect(contextLimit({ contextWindow: 1000, maxOutputTokens: 300 })).toBe(700);
    expect(contextLimit({ contextWindow: 1001, maxOutputTokens: 600 }), "half of an odd window, rounded down, is kept").toBe(501);
    expect(contextLimit({ contextWindow: 1000, maxOutputTokens: 500 })).toBe(500);
  });
});

describe("latestUsage", () => {
  const request = (ts: number, tokensIn: number): ChatMessage => ({ ts, type: "say", say: "api_req_started", apiRequest: { tokensIn, tokensOut: 1, cacheReads: 2, cacheWrites: 3, cost: 0 } });

  it("is the newest request's whole use of the window, read past rows that are not requests", () => {
    const chat: ChatMessage[] = [request(1, 100), request(2, 200), { ts: 3, type: "say", say: "text", text: "hi" }, { ts: 4, type: "ask", ask: "followup", text: "?" } as ChatMessage];
    expect(latestUsage(chat)).toBe(206);
    expect(latestUsage([request(1, 100)]), "the only row").toBe(106);
  });

  it("skips a request row without usage yet", () => {
    const pending: ChatMessage = { ts: 2, type: "say", say: "api_req_started" };
    expect(latestUsage([request(1, 40), pending])).toBe(46);
  });

  it("is undefined with no request, or none since the conversation was condensed or truncated", () => {
    expect(latestUsage([])).toBeUndefined();
    expect(latestUsage([{ ts: 1, type: "say", say: "text", text: "hi" }])).toBeUndefined();
    expect(latestUsage([request(1, 40), { ts: 2, type: "say", say: "context_truncated" }])).toBeUndefined();
  });
});
