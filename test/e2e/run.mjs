#!/usr/bin/env node
/**
 * Runs Tandem's end-to-end scenarios in a real VS Code (code-server + headless Chromium), one
 * after another, each in fresh state, and prints a PASS/FAIL line per scenario and a summary.
 *
 *   node test/e2e/run.mjs [--self-check] [name-filter ...]
 *
 * --self-check runs test/e2e/self-check/ instead: scenarios that must fail, proving the harness
 * reports failures. There a scenario passes only when it fails with its `expectedFailure`.
 * Needs `bash test/e2e/setup.sh` and `npm run package` first. TANDEM_E2E_KEEP=1 keeps run folders.
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Harness } from "./lib/harness.mjs";
import { E2E_DIR, OUTPUT_DIR } from "./lib/paths.mjs";
import { closeSessionsOnSignals } from "./lib/session.mjs";
import { assertToolsInstalled } from "./lib/tools.mjs";

const SCENARIO_TIMEOUT_MS = 150_000;

const { values, positionals } = parseArgs({
  options: { "self-check": { type: "boolean", default: false } },
  allowPositionals: true,
});
const selfCheck = values["self-check"];
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
console.log(`e2e${selfCheck ? " self-check" : ""}: ${files.length} scenario(s) from ${path.relative(process.cwd(), folder) || "."}`);
for (const file of files) {
  const result = await runScenario(file);
  if (result.ok) passed += 1;
  else failed += 1;
  console.log(`${result.ok ? "PASS" : "FAIL"} ${result.name} in ${result.seconds.toFixed(1)} s, peak ${result.memory}${result.detail ? `: ${result.detail}` : ""}`);
  for (const note of result.notes) console.log(`     ${note}`);
}
console.log(`e2e${selfCheck ? " self-check" : ""} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

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
    await withTimeout(scenario.default(harness), SCENARIO_TIMEOUT_MS, `${name} ran longer than ${SCENARIO_TIMEOUT_MS / 1000} s`);
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
