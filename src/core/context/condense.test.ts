import { describe, expect, it } from "vitest";
import type { ApiMessage } from "../../api/types";
import { condenseHistory, SUMMARY_MARK, summaryRequest } from "./condense";
import { contextLimit, estimateTokens, latestUsage } from "./context-window";
import { ReadLedger, replacedReadNote } from "./read-ledger";
import { truncateConversation } from "./truncate-conversation";

const user = (text: string): ApiMessage => ({ role: "user", content: [{ type: "text", text }] });
const call = (id: string): ApiMessage => ({ role: "assistant", content: [{ type: "text", text: `calling ${id}` }, { type: "tool_use", id, name: "read_file", input: { path: id } }] });
const result = (id: string, text = `result ${id}`): ApiMessage => ({ role: "user", content: [{ type: "tool_result", toolUseId: id, content: text }] });

/** task, then n rounds of a native call and its result. */
function history(rounds: number, resultSize?: number): ApiMessage[] {
  const messages = [user("<task>\nthe task\n</task>")];
  for (let i = 1; i <= rounds; i++) messages.push(call(`c${i}`), result(`c${i}`, resultSize === undefined ? `result c${i}` : "x".repeat(resultSize)));
  return messages;
}

describe("contextLimit", () => {
  it("is the stricter of 80 % of the window and the window less the output limit", () => {
    expect(contextLimit({ contextWindow: 200_000, maxOutputTokens: 8_192 })).toBe(160_000);
    expect(contextLimit({ contextWindow: 200_000, maxOutputTokens: 64_000 })).toBe(136_000);
    // An output limit as large as the window keeps half of it, not all of it.
    expect(contextLimit({ contextWindow: 20_000, maxOutputTokens: 20_000 })).toBe(10_000);
  });
});

describe("latestUsage", () => {
  const row = (ts: number, tokensIn: number) => {
    const others = tokensIn > 0 ? { tokensOut: 10, cacheReads: 5, cacheWrites: 5 } : { tokensOut: 0, cacheReads: 0, cacheWrites: 0 };
    return { ts, type: "say" as const, say: "api_req_started" as const, apiRequest: { tokensIn, ...others, cost: 0 } };
  };
  it("reads the newest request that reported usage, and nothing from before a condense", () => {
    expect(latestUsage([row(1, 100), row(2, 0)])).toBe(120);
    expect(latestUsage([row(1, 100), { ts: 2, type: "say", say: "context_condensed", text: "s" }])).toBeUndefined();
    expect(latestUsage([row(1, 100), { ts: 2, type: "say", say: "context_truncated" }, row(3, 50)])).toBe(70);
  });
});

describe("condenseHistory", () => {
  it("keeps the task with the summary and the latest rounds that fit, starting at an assistant message", () => {
    const before = history(6, 400);
    const condensed = condenseHistory(before, "SUMMARY", estimateTokens(before.slice(11)));
    expect(condensed?.history.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(condensed?.removed).toBe(10);
    expect(JSON.stringify(condensed?.history[0])).toContain(`${SUMMARY_MARK}\\nSUMMARY`);
    expect(condensed?.history.slice(1)).toEqual(before.slice(11));
    // With room for more, more recent rounds stay, whole.
    const roomy = condenseHistory(before, "SUMMARY", estimateTokens(before.slice(9)) + 1);
    expect(roomy?.history.slice(1)).toEqual(before.slice(9));
  });

  it("replaces an earlier summary rather than piling summaries up, and has nothing to do in the first round", () => {
    const once = condenseHistory(history(4), "FIRST", 1)?.history as ApiMessage[];
    const again = condenseHistory([...once, call("c9"), result("c9"), call("c10"), result("c10")], "SECOND", 1)?.history;
    const opening = JSON.stringify(again?.[0]);
    expect(opening).toContain("SECOND");
    expect(opening).not.toContain("FIRST");
    expect(opening).toContain("the task");
    expect(condenseHistory(history(1), "S", 1)).toBeUndefined();
    expect(condenseHistory([user("task")], "S", 1)).toBeUndefined();
  });

  it("asks for the summary with tool calls as text, and the instruction in the last user message", () => {
    const request = summaryRequest(history(2));
    expect(request.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    const text = JSON.stringify(request);
    expect(text).not.toContain('"tool_use"');
    expect(text).not.toContain('"tool_result"');
    expect(text).toContain('[tool call read_file {\\"path\\":\\"c1\\"}]');
    expect(JSON.stringify(request.at(-1))).toContain("Summarise the conversation above");
    // Ending on the model's turn, the instruction comes as a message of its own.
    expect(summaryRequest(history(2).slice(0, -1)).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  });
});

describe("ReadLedger", () => {
  function ledgerOver(messages: ApiMessage[]) {
    const store = {
      apiHistory: messages,
      replaced: [] as number[],
      replaceApiMessage(index: number, message: ApiMessage) {
        store.apiHistory[index] = message;
        store.replaced.push(index);
      },
    };
    return { store, ledger: new ReadLedger(store, () => 1) };
  }
  const key = { file: "/ws/a.ts", start: 1, end: Number.POSITIVE_INFINITY, shown: "a.ts" };

  it("finds its blocks again after a rewrite of the history, and forgets the dropped ones", () => {
    const messages = history(3);
    const { store, ledger } = ledgerOver(messages);
    // Round 1's read is recorded at message 2 …
    store.apiHistory = messages.slice(0, 3);
    expect(ledger.willReturn(key, "result c1")).toBeUndefined();
    ledger.settle();
    store.apiHistory = messages;
    expect(ledger.willReturn(key, "result c1")).toEqual({ round: 1 });
    // … truncated away, it is forgotten: the next read goes out in full.
    store.apiHistory = truncateConversation(messages, 0.5).history;
    ledger.rebase();
    expect(ledger.willReturn(key, "result c1")).toBeUndefined();
    expect(store.replaced).toEqual([]);
  });

  it("keeps a block that moved: a condensed history still holding it is found where it is now", () => {
    const messages = history(3);
    const { store, ledger } = ledgerOver(messages);
    store.apiHistory = messages.slice(0, 7);
    ledger.willReturn(key, "result c3");
    ledger.settle();
    store.apiHistory = condenseHistory(messages, "S", 1)?.history as ApiMessage[];
    ledger.rebase();
    expect(ledger.willReturn(key, "result c3")).toEqual({ round: 1 });
  });

  it("keeps a superseded copy whole until the context must shrink, then shortens it (not one shorter than its note)", () => {
    const long = "x".repeat(500);
    const messages = history(3, 500);
    const { store, ledger } = ledgerOver(messages);
    // Round 1 reads the file at message 2, round 2 reads it again (changed) at message 4.
    store.apiHistory = messages.slice(0, 3);
    ledger.willReturn(key, long);
    ledger.settle();
    store.apiHistory = messages.slice(0, 5);
    (store.apiHistory[4] as { content: { content: string }[] }).content[0]!.content = `${long}y`;
    ledger.willReturn(key, `${long}y`);
    ledger.settle();
    expect(store.replaced).toEqual([]);
    expect(ledger.shortenSuperseded()).toBe(1);
    expect(store.replaced).toEqual([2]);
    expect(JSON.stringify(store.apiHistory[2])).toContain(replacedReadNote("a.ts"));
    // Nothing is left to shorten; a short copy (here: the three-line file) is never worth a note.
    expect(ledger.shortenSuperseded()).toBe(0);
    const small = history(3);
    const other = ledgerOver(small);
    other.store.apiHistory = small.slice(0, 3);
    other.ledger.willReturn(key, "result c1");
    other.ledger.settle();
    other.store.apiHistory = small.slice(0, 5);
    other.ledger.willReturn(key, "result c2");
    other.ledger.settle();
    expect(other.ledger.shortenSuperseded()).toBe(0);
    expect(other.store.replaced).toEqual([]);
  });
});
