/**
 * The spending caps (maxCostPerTask, maxRequestsPerTask) through the real Controller, Task and
 * Anthropic SDK against the scripted model server: the question at the cap and its three answers,
 * and over many seeded runs with random prices and caps, that a task never passes its cap by more
 * than the one request that crossed it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { resolveModel } from "../../src/api/model-info";
import type { AskMessage } from "../../src/shared/messages";
import { sumUsage } from "../../src/shared/usage";
import { prng } from "../support/prng";
import type { ScriptTurn } from "../support/script";
import { startHarness, type Harness } from "../support/task-harness";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const MODEL = "claude-sonnet-5-5";
const PRICES = resolveModel("anthropic", MODEL).info;
/** A round that lists a folder (read-only, approved by default) and costs `inputTokens` of input. */
const round = (inputTokens: number): ScriptTurn => ({ text: "<list_files>\n<path>.</path>\n</list_files>", usage: { inputTokens, outputTokens: 0 } });
const DONE: ScriptTurn = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>", usage: { inputTokens: 10, outputTokens: 0 } };
const requestsOf = (harness: Harness) => harness.server.requests.filter((r) => r.turnIndex >= 0).length;
const spendAsks = (harness: Harness) => harness.messages.filter((m): m is AskMessage => m.type === "ask" && m.ask === "spend_limit_reached");

describe("the request cap", () => {
  it("asks at the cap; Continue Once makes one more request, Raise doubles the cap, Stop ends the task", async () => {
    const answers = ["proceed", "raise", "stop"];
    h = await startHarness({
      provider: "anthropic",
     
      turns: Array.from({ length: 10 }, () => round(100)),
      settings: { maxRequestsPerTask: 2 },
      answer: (ask) => {
        if (ask.ask !== "spend_limit_reached") return undefined;
        const choice = answers.shift();
        return choice === "stop" ? { type: "no" } : { type: "yes", ...(choice === "raise" ? { choice } : {}) };
      },
    });
    expect(await h.run("List the folder again and again")).toBe("spend_limit");
    // 2 requests, the cap; one more (Continue Once); the cap doubled to 4; then Stop.
    expect(requestsOf(h)).toBe(4);
    expect(spendAsks(h).map((m) => m.text)).toEqual([
      "The task has spent 2 of its 2 requests. Continue with one more request, raise the cap (doubled, for this task), or stop.",
      "The task has spent 3 of its 2 requests. Continue with one more request, raise the cap (doubled, for this task), or stop.",
      "The task has spent 4 of its 4 requests. Continue with one more request, raise the cap (doubled, for this task), or stop.",
    ]);
    expect(h.messages.some((m) => m.type === "say" && m.say === "info" && m.text === "The caps for this task are now 4 requests.")).toBe(true);
  });

  it("asks nothing without a cap", async () => {
    h = await startHarness({ provider: "anthropic", turns: [round(100), round(100), round(100), DONE], answer: () => ({ type: "yes" }) });
    expect(await h.run("List three times")).toBe("completed");
    expect(spendAsks(h)).toEqual([]);
  });
});

describe("the cost cap", () => {
  it("is never passed by more than one request, over many seeded runs with random prices and caps", async () => {
    const random = prng(2027);
    const perToken = PRICES.inputPrice / 1e6;
    for (let run = 0; run < 12; run++) {
      const costs = Array.from({ length: 12 }, () => 500 + Math.floor(random() * 20_000));
      const cap = Number(((0.02 + random() * 0.2) * (costs.reduce((a, b) => a + b, 0) * perToken)).toFixed(4));
      h = await startHarness({ provider: "anthropic", turns: [...costs.map(round), DONE], settings: { maxCostPerTask: cap }, answer: (ask) => (ask.ask === "spend_limit_reached" ? { type: "no" } : undefined) });
      const outcome = await h.run("Spend");
      const made = requestsOf(h);
      // The first request at which the total reached the cap is the last one made.
      let spent = 0;
      let crossed = 0;
      while (crossed < costs.length && spent < cap) spent += (costs[crossed++] as number) * perToken;
      expect([outcome, made], `run ${run}: cap $${cap}, requests ${costs.join(",")}`).toEqual(["spend_limit", crossed]);
      const total = sumUsage(h.messages).cost;
      const last = (costs[made - 1] as number) * perToken;
      expect(total - last, `run ${run}`).toBeLessThan(cap);
      await h.dispose();
      h = undefined;
    }
  });
});
