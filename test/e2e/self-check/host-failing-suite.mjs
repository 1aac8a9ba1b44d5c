/**
 * Self-check: the deliberately failing in-host suite (test/e2e/host/failing) must come back as a
 * failure with exit code 1, judged by the same assertion the real suites pass.
 */
import { HOST_FAILING_SUITES, assertHostTestsPassed, runHostTests } from "../lib/host-tests.mjs";

export const description = "a failing test inside the extension host fails the run";
export const expectedFailure = /^in-host mocha suites failed: exit code 1, 1 failing$/;

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function hostFailingSuite(t) {
  const outcome = await runHostTests((options) => t.startSession(options), {
    testsEntry: HOST_FAILING_SUITES,
    print: () => {},
  });
  assertHostTestsPassed(outcome);
}
