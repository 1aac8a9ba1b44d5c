#!/usr/bin/env node
/**
 * Runs Tandem's in-host mocha suites (test/e2e/host/suite) inside code-server's real extension
 * host and exits with their exit code.
 *
 *   node test/e2e/run-host.mjs [--self-check]
 *
 * --self-check runs test/e2e/host/failing instead, which must fail: the expected outcome is exit
 * code 1 with a failing test reported, and then this script exits 0.
 * Needs `bash test/e2e/setup.sh` and a built extension (`npm run build`).
 */
import { parseArgs } from "node:util";
import { HOST_FAILING_SUITES, HOST_SUITES, runHostTests } from "./lib/host-tests.mjs";
import { closeSessionsOnSignals, startSession } from "./lib/session.mjs";
import { assertToolsInstalled } from "./lib/tools.mjs";

const { values } = parseArgs({ options: { "self-check": { type: "boolean", default: false } } });
const selfCheck = values["self-check"];
assertToolsInstalled();
closeSessionsOnSignals();

const started = Date.now();
/** @type {Awaited<ReturnType<typeof startSession>> | undefined} */
let session;
let outcome;
try {
  outcome = await runHostTests(
    async (options) => (session = await startSession({ name: selfCheck ? "host-self-check" : "host", ...options })),
    { testsEntry: selfCheck ? HOST_FAILING_SUITES : HOST_SUITES },
  );
} catch (error) {
  console.error(`in-host tests could not run: ${error instanceof Error ? error.message : error}`);
} finally {
  await session?.close().catch((error) => {
    console.error(String(error));
    outcome = undefined;
  });
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (!outcome) process.exit(2);
if (!selfCheck) {
  console.log(`[run-host] extension host exit code ${outcome.exitCode} after ${seconds} s`);
  process.exit(outcome.exitCode === 0 ? 0 : 1);
}
// The deliberate failure must come back as exit code 1 with mocha reporting it.
const reported = outcome.output.some((line) => /\b1 failing\b/.test(line));
const asExpected = outcome.exitCode === 1 && reported;
console.log(
  `[run-host] self-check: exit code ${outcome.exitCode}, failing test ${reported ? "reported" : "NOT reported"} after ${seconds} s: ` +
    (asExpected ? "the expected outcome" : "NOT the expected outcome (want exit code 1 and '1 failing')"),
);
process.exit(asExpected ? 0 : 1);
