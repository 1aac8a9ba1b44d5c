#!/usr/bin/env node
/**
 * Runs Tandem's end-to-end scenarios in a real VS Code (code-server + headless Chromium), one
 * after another, each in fresh state, and prints a PASS/FAIL line per scenario and a summary.
 *
 *   node test/e2e/run.mjs [--self-check] [--jobs N] [--retries N] [name-filter ...]
 *
 * --self-check runs test/e2e/self-check/ instead: scenarios that must fail, proving the harness
 * reports failures. There a scenario passes only when it fails with its `expectedFailure`.
 * --jobs N runs N scenarios at a time (default 1, or TANDEM_E2E_JOBS): each has its own run folder,
 * ports and processes, so they cannot see each other; the longest scenarios start first.
 * --retries N runs a failed scenario again, up to N times (default 0, or TANDEM_E2E_RETRIES): CI's
 * two loaded cores sometimes miss a wait that holds alone. The summary names every retried
 * scenario, so a flaky one shows; one that fails every try fails the run. Self-checks never retry.
 * Needs `bash test/e2e/setup.sh` and `npm run package` first. TANDEM_E2E_KEEP=1 keeps run folders.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Harness } from "./lib/harness.mjs";
import { E2E_DIR, OUTPUT_DIR } from "./lib/paths.mjs";
import { closeSessionsOnSignals } from "./lib/session.mjs";
import { assertToolsInstalled } from "./lib/tools.mjs";

/** How long a scenario may run, unless it exports its own `timeoutMs` (one that checks many views). */
const SCENARIO_TIMEOUT_MS = 150_000;

const { values, positionals } = parseArgs({
  options: {
    "self-check": { type: "boolean", default: false },
    jobs: { type: "string", default: process.env.TANDEM_E2E_JOBS ?? "1" },
    retries: { type: "string", default: process.env.TANDEM_E2E_RETRIES ?? "0" },
  },
  allowPositionals: true,
});
const selfCheck = values["self-check"];
const jobs = Number(values.jobs);
if (!Number.isInteger(jobs) || jobs < 1) {
  console.error(`--jobs takes a whole number of at least 1, not "${values.jobs}"`);
  process.exit(2);
}
const retries = selfCheck ? 0 : Number(values.retries);
if (!Number.isInteger(retries) || retries < 0) {
  console.error(`--retries takes a whole number of at least 0, not "${values.retries}"`);
  process.exit(2);
}
const folder = path.join(E2E_DIR, selfCheck ? "self-check" : "scenarios");
const files = readdirSync(folder)
  .filter((file) => file.endsWith(".mjs"))
  .filter((file) => positionals.length === 0 || positionals.some((p) => file.includes(p)))
  .sort();

assertToolsInstalled();
closeSessionsOnSignals();
if (files.length === 0) {
  console.error(`no scenarios in ${folder}${positionals.length ? ` matching ${positionals.join(", ")}` : ""}`);
  process.exit(1);
}

const started = Date.now();
let passed = 0;
let failed = 0;
/** Scenarios that failed a try and passed a later one. */
const retried = [];
console.log(`e2e${selfCheck ? " self-check" : ""}: ${files.length} scenario(s) from ${path.relative(process.cwd(), folder) || "."}`);
/** How long each scenario took last time on this machine (git-ignored output), so a parallel run starts the long ones first. */
const SECONDS_FILE = path.join(OUTPUT_DIR, "scenario-seconds.json");
const seconds = readSeconds();
const queue = jobs > 1 ? longestFirst(files) : [...files];
const worker = async () => {
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    let result = await runScenario(file);
    for (let left = retries; !result.ok && left > 0; left -= 1) {
      console.log(`RETRY ${result.name}: failed in ${result.seconds.toFixed(1)} s: ${firstLine({ message: result.detail ?? "" })}`);
      result = await runScenario(file);
      if (result.ok) retried.push(path.basename(file, ".mjs"));
    }
    if (result.ok) passed += 1;
    else failed += 1;
    console.log(`${result.ok ? "PASS" : "FAIL"} ${result.name} in ${result.seconds.toFixed(1)} s, peak ${result.memory}${result.detail ? `: ${result.detail}` : ""}`);
    for (const note of result.notes) console.log(`     ${note}`);
    recordSeconds(file, result.seconds);
  }
};
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
saveSeconds();
console.log(`e2e${selfCheck ? " self-check" : ""} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed${retried.length ? `; passed only when retried: ${retried.join(", ")}` : ""}`);
process.exit(failed === 0 ? 0 : 1);

function readSeconds() {
  try {
    return JSON.parse(readFileSync(SECONDS_FILE, "utf8"));
  } catch {
    return {};
  }
}

function recordSeconds(file, value) {
  seconds[file] = Math.round(value);
}

function saveSeconds() {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  writeFileSync(SECONDS_FILE, `${JSON.stringify(seconds, null, 2)}\n`);
}

/** Unknown scenarios count as long: a new one is as likely as any to be slow. */
function longestFirst(list) {
  return [...list].sort((a, b) => (seconds[b] ?? Infinity) - (seconds[a] ?? Infinity) || a.localeCompare(b));
}

/** Runs one scenario file and judges it; teardown always runs, and its failure is always a failure. */
async function runScenario(file) {
  const name = path.basename(file, ".mjs");
  clearOutputs(name);
  const t0 = Date.now();
  const harness = new Harness(name);
  let scenario = {};
  let error;
  try {
    scenario = await import(pathToFileURL(path.join(folder, file)).href);
    if (typeof scenario.default !== "function") throw new Error(`${file} has no default export function`);
    const limit = typeof scenario.timeoutMs === "number" ? scenario.timeoutMs : SCENARIO_TIMEOUT_MS;
    await withTimeout(scenario.default(harness), limit, `${name} ran longer than ${limit / 1000} s`);
  } catch (e) {
    error = e instanceof Error ? e : new Error(String(e));
  }
  let notes = [];
  let teardownError;
  try {
    notes = await harness.close({ failed: error !== undefined && !selfCheck });
  } catch (e) {
    teardownError = e instanceof Error ? e : new Error(String(e));
  }
  notes.unshift(...harness.laps.map((laps) => `timeline: ${laps}`));
  return {
    name: typeof scenario.description === "string" ? `${name} (${scenario.description})` : name,
    ...judge(scenario, error, teardownError),
    notes,
    seconds: (Date.now() - t0) / 1000,
    memory: `${(harness.peakMemoryKiB / 1024 / 1024).toFixed(2)} GiB`,
  };
}

/** @returns {{ ok: boolean, detail?: string }} */
function judge(scenario, error, teardownError) {
  if (teardownError) return { ok: false, detail: `${error ? `${firstLine(error)}; ` : ""}${teardownError.message}` };
  if (!selfCheck) return error ? { ok: false, detail: error.stack ?? error.message } : { ok: true };
  const expected = scenario.expectedFailure;
  if (!(expected instanceof RegExp)) return { ok: false, detail: "a self-check scenario must export expectedFailure (a RegExp)" };
  if (!error) return { ok: false, detail: "expected this scenario to fail, but it passed" };
  if (!expected.test(error.message)) return { ok: false, detail: `failed, but not as expected (${expected}): ${error.message}` };
  return { ok: true, detail: `failed as expected: ${firstLine(error)}` };
}

/** Screenshots and logs of an earlier run of this scenario would be mistaken for this run's. */
function clearOutputs(name) {
  if (!existsSync(OUTPUT_DIR)) return;
  for (const entry of readdirSync(OUTPUT_DIR)) {
    if (entry.startsWith(`${name}.`) || entry.startsWith(`${name}-`)) rmSync(path.join(OUTPUT_DIR, entry), { recursive: true, force: true });
  }
}

function firstLine(error) {
  return error.message.split("\n")[0];
}

function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
