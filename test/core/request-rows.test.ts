/**
 * What the chat says about a failing request must stay true: the request row stops spinning once
 * the request failed for good, a retry's countdown row is closed when its wait ends, the status
 * code is named once, and a refused key points to the settings. Real SDKs, scripted server.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/shared/messages";
import { startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

const completion = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

async function open(options: HarnessOptions): Promise<Harness> {
  harness = await startHarness(options);
  return harness;
}

const requestRows = (h: Harness) => h.messages.filter((m) => m.type === "say" && m.say === "api_req_started");
const retryRows = (h: Harness) => h.messages.filter((m): m is ChatMessage => m.type === "say" && m.say === "error_retry");
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe.each(["anthropic", "openai"] as const)("a failing request (%s)", (provider) => {
  it("a refused key: the row stops spinning, says 401 once and offers the settings", async () => {
    const h = await open({ provider, turns: [{ kind: "fault", fault: "auth" }] });
    await h.start("Do it");
    const ask = await h.waitForAsk("api_req_failed");
    expect(count(ask.text ?? "", "401")).toBe(1);
    const row = requestRows(h)[0]?.apiRequest;
    expect(row?.outcome).toBe("failed");
    expect(row?.keyRefused).toBe(true);
    expect(count(row?.error ?? "", "401")).toBe(1);
    h.controller.answer(ask.ts, { type: "no" });
    expect(await h.finished()).toBe("failed");
    expect(requestRows(h)[0]?.apiRequest?.outcome).toBe("failed");
  });

  it("retries spent: every countdown row is closed and the request row says failed while the person decides", async () => {
    const fault = { kind: "fault", fault: "server_error" } as const;
    const h = await open({ provider, turns: [fault, fault, fault, fault], settings: { requestRetries: 3 } });
    await h.start("Do it");
    const ask = await h.waitForAsk("api_req_failed");
    const retries = retryRows(h);
    expect(retries.map((m) => m.retry?.attempt)).toEqual([1, 2, 3]);
    expect(retries.map((m) => m.retry?.outcome)).toEqual(["retried", "retried", "retried"]);
    expect(requestRows(h)).toHaveLength(1);
    expect(requestRows(h)[0]?.apiRequest?.outcome).toBe("failed");
    expect(requestRows(h)[0]?.apiRequest?.keyRefused).toBeUndefined();
    h.controller.answer(ask.ts, { type: "no" });
    expect(await h.finished()).toBe("failed");
  });

  it("a retry that succeeds: the row spins again for the new attempt and ends completed, without the old error", async () => {
    const h = await open({ provider, answer: () => ({ type: "yes" }), turns: [{ kind: "fault", fault: "server_error" }, completion] });
    expect(await h.run("Do it")).toBe("completed");
    expect(retryRows(h).map((m) => m.retry?.outcome)).toEqual(["retried"]);
    const info = requestRows(h)[0]?.apiRequest;
    expect(info?.outcome).toBe("completed");
    expect(info?.error).toBeUndefined();
  });

  it("the person retries after the automatic attempts: the row spins again, then completes", async () => {
    const fault = { kind: "fault", fault: "server_error" } as const;
    const h = await open({ provider, turns: [fault, fault, completion], settings: { requestRetries: 1 } });
    await h.start("Do it");
    const failed = await h.waitForAsk("api_req_failed");
    expect(requestRows(h)[0]?.apiRequest?.outcome).toBe("failed");
    h.controller.answer(failed.ts, { type: "yes" });
    const result = await h.waitForAsk("completion_result");
    h.controller.answer(result.ts, { type: "yes" });
    expect(await h.finished()).toBe("completed");
    expect(requestRows(h)[0]?.apiRequest?.outcome).toBe("completed");
    expect(requestRows(h)[0]?.apiRequest?.error).toBeUndefined();
  });

  it("cancelled during a retry's countdown: the countdown and the request say so", async () => {
    const h = await open({ provider, turns: [{ kind: "fault", fault: "server_error" }, completion], retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    await h.start("Do it");
    const deadline = Date.now() + 5_000;
    while (retryRows(h).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await h.controller.cancelTask();
    expect(retryRows(h)[0]?.retry?.outcome).toBe("cancelled");
    expect(requestRows(h)[0]?.apiRequest?.outcome).toBe("cancelled");
  });
});

describe.each([
  ["anthropic", "cache writes", 2.5],
  ["openai", "input", 2],
] as const)("the first request's estimate (%s: its prompt billed as %s)", (provider, _billedAs, pricePerMillion) => {
  it("is on its row before the request goes, near the size of what was sent, and only the first request has one", async () => {
    const h = await open({ provider, answer: () => ({ type: "yes" }), turns: [{ text: "<list_files>\n<path>.</path>\n</list_files>" }, completion] });
    let requestsWhenEstimated: number | undefined;
    h.controller.events.onDidChangeChat((change) => {
      if ((change.kind === "added" || change.kind === "updated") && change.message.apiRequest?.estimate && requestsWhenEstimated === undefined) requestsWhenEstimated = h.server.requests.length;
    });
    expect(await h.run("List the files")).toBe("completed");
    expect(requestsWhenEstimated).toBe(0);
    const [first, second] = requestRows(h).map((m) => m.apiRequest);
    const estimate = first?.estimate;
    const sent = JSON.stringify(h.server.requests[0]?.body).length / 4;
    expect(estimate?.tokensIn).toBeGreaterThan(sent * 0.8);
    expect(estimate?.tokensIn).toBeLessThan(sent * 1.2);
    expect(estimate?.cost).toBeCloseTo(((estimate?.tokensIn ?? 0) * pricePerMillion) / 1e6, 12);
    expect(second?.estimate).toBeUndefined();
  });
});
