/**
 * The mocha suites of test/e2e/host/suite, run inside code-server's real extension host with the
 * repository loaded as the extension under development (its built dist/extension.js).
 */
import { HOST_SUITES, assertHostTestsPassed, runHostTests } from "../lib/host-tests.mjs";

export const description = "in-host mocha suites pass in a real extension host";

/** @param {import("../lib/harness.mjs").Harness} t */
export default async function hostSuites(t) {
  const outcome = await runHostTests((options) => t.startSession(options), { testsEntry: HOST_SUITES, print: (line) => t.log(line) });
  assertHostTestsPassed(outcome);
}
