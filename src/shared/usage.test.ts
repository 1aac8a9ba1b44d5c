import { describe, expect, it } from "vitest";
import { latestUsage } from "../core/context/context-window";
import type { ApiRequestInfo, ChatMessage } from "./messages";
import { rewound } from "../core/controller/checkpoints";
import { contextTokens, removedRequests, requestInfo, sumUsage } from "./usage";

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

describe("a restore and the totals", () => {
  const task: ChatMessage = { ts: 1, type: "say", say: "task", text: "t", checkpoint: { hash: "c0", apiMessages: 1 } };
  const point: ChatMessage = { ts: 3, type: "say", say: "checkpoint_created", checkpoint: { hash: "c1", apiMessages: 3 } };
  const chat = [task, request(2, { tokensIn: 100, tokensOut: 10, cacheReads: 0, cacheWrites: 0 }), point, request(4, { tokensIn: 50, tokensOut: 5, cacheReads: 7, cacheWrites: 0 }), request(5, { tokensIn: 20, tokensOut: 2, cacheReads: 0, cacheWrites: 3 })];
  const api = [{ role: "user" as const, content: "a" }, { role: "assistant" as const, content: "b" }, { role: "user" as const, content: "c" }, { role: "assistant" as const, content: "d" }];

  it("keeps every request billed: the restore's row carries what it removed, and the sum is unchanged", () => {
    const before = sumUsage(chat);
    const restored = rewound({ chat, api }, 3);
    expect(restored.chat.map((m) => m.ts)).toEqual([1, 2, 3, 4]);
    expect(restored.api).toHaveLength(3);
    const row = restored.chat.at(-1);
    expect(row).toMatchObject({ type: "say", say: "checkpoint_restored", removedRequests: { requests: 2, tokensIn: 70, tokensOut: 7, cacheReads: 7, cacheWrites: 3 } });
    expect(row?.removedRequests?.cost).toBeCloseTo(0.02);
    expect(sumUsage(restored.chat)).toEqual(before);
    // The context gauge reads real requests only, not what a restore carried.
    expect(requestInfo(row)).toBeUndefined();
  });

  it("survives a second restore further back, and a restore with nothing billed after it adds no row", () => {
    const once = rewound({ chat, api }, 3).chat;
    const resumed = [...once, { ts: 10, type: "ask" as const, ask: "resume_task" as const }, request(11, { tokensIn: 1, tokensOut: 1, cacheReads: 0, cacheWrites: 0 })];
    const twice = rewound({ chat: resumed, api }, 1).chat;
    expect(twice.map((m) => m.ts)).toEqual([1, 2]);
    expect(twice[1]).toMatchObject({ say: "checkpoint_restored", removedRequests: { requests: 4, tokensIn: 171 } });
    expect(sumUsage(twice)).toEqual(sumUsage(resumed));
    expect(removedRequests([point])).toBeUndefined();
    expect(rewound({ chat: [task, point], api }, 3).chat).toEqual([task, point]);
  });
});
