/**
 * A request that never answers ends with a clear error in bounded time, and cancel stops it at
 * once. Through the real Controller, SDKs and scripted model server; the stall timeout and the
 * retry count come from the settings, as in VS Code and the CLI.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_RETRY_OPTIONS } from "../../src/core/task/retry-policy";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";
import { startHarness, type Harness } from "../support/task-harness";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

/** The longest a request that never answers can take with these settings, in seconds. */
function worstCaseSeconds(retries: number, stallSeconds: number): number {
  let backoff = 0;
  for (let attempt = 0; attempt < retries; attempt++) backoff += Math.min(DEFAULT_RETRY_OPTIONS.maxDelayMs, DEFAULT_RETRY_OPTIONS.baseDelayMs * 2 ** attempt);
  return (retries + 1) * stallSeconds + backoff / 1000;
}

describe("bounded waits", () => {
  it("by default, a request that never answers ends within two and a half minutes", () => {
    expect(worstCaseSeconds(DEFAULT_AGENT_SETTINGS.requestRetries, DEFAULT_AGENT_SETTINGS.stallTimeoutSeconds)).toBeLessThanOrEqual(150);
  });

  it.each(["anthropic", "openai"] as const)("%s: a stream that stalls after its first chunk every time is tried retries + 1 times, then ends with a clear error", async (provider) => {
    const stall = { kind: "fault", fault: "stall", text: "Thinking about it" } as const;
    harness = await startHarness({
      provider,
      // The stall timeout comes from the settings, not from the harness's own default.
      api: { streamIdleTimeoutMs: undefined },
      settings: { stallTimeoutSeconds: 0.3, requestRetries: 2 },
      answer: (ask) => (ask.ask === "api_req_failed" ? { type: "no" } : { type: "yes" }),
      turns: [stall, stall, stall, stall, stall],
    });
    expect(await harness.run("Do it")).toBe("failed");
    expect(harness.server.requests).toHaveLength(3);
    const failed = harness.asks.find((a) => a.ask === "api_req_failed");
    expect(failed?.text).toContain("no data arrived for 300 ms");
    expect(harness.messages.filter((m) => m.type === "say" && m.say === "error_retry")).toHaveLength(2);
  });

  it("cancel stops a stalled request at once, long before its stall timeout", async () => {
    harness = await startHarness({
      provider: "anthropic",
      api: { streamIdleTimeoutMs: undefined },
      settings: { stallTimeoutSeconds: 600 },
      turns: [{ kind: "fault", fault: "stall", text: "Thinking" }],
    });
    await harness.start("Do it");
    while (harness.server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await harness.controller.cancelTask();
    // The test's own timeout (20 s) is far below the 600 s stall timeout.
    expect(await harness.finished()).toBe("aborted");
  });
});
