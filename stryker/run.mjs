#!/usr/bin/env node
/**
 * `npm run test:mutation [-- <module>... ] [--concurrency N] [--incremental] [--mutate <globs>]`:
 * Stryker once per module of modules.mjs (all of them without names), each module's files mutated
 * against only its own unit tests, string-literal mutants left out. `--mutate a.ts,b.ts` narrows
 * a run to some of a module's files (a score of those files only). Prints each module's mutation score and
 * writes the HTML and JSON reports to reports/mutation/ (not in git). Slow: not part of CI.
 */
import * as path from "node:path";
import { Stryker } from "@stryker-mutator/core";
import { MODULES } from "./modules.mjs";

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const [value] = args.splice(i, 2).slice(1);
  return value;
};
const concurrency = Number(option("--concurrency") ?? 1);
const narrowed = option("--mutate")?.split(",");
const tests = option("--tests")?.split(",");
const incremental = args.includes("--incremental");
const names = args.filter((arg) => !arg.startsWith("--"));
const unknown = names.filter((name) => !MODULES.some((m) => m.name === name));
if (unknown.length > 0) {
  console.error(`Unknown module(s): ${unknown.join(", ")}. Known: ${MODULES.map((m) => m.name).join(", ")}`);
  process.exit(2);
}
const chosen = names.length === 0 ? MODULES : MODULES.filter((m) => names.includes(m.name));

const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

/** Killed (or timed out) over all valid mutants, per file and for the module. */
function scores(results) {
  const byFile = new Map();
  for (const r of results) {
    const file = path.relative(process.cwd(), r.fileName);
    const s = byFile.get(file) ?? { detected: 0, total: 0 };
    if (DETECTED.has(r.status)) s.detected++;
    if (DETECTED.has(r.status) || UNDETECTED.has(r.status)) s.total++;
    byFile.set(file, s);
  }
  const all = [...byFile.values()].reduce((a, s) => ({ detected: a.detected + s.detected, total: a.total + s.total }), { detected: 0, total: 0 });
  return { all, byFile };
}
const pct = ({ detected, total }) => (total === 0 ? "n/a" : `${((100 * detected) / total).toFixed(1)}%`);

const summary = [];
for (const module of chosen) {
  console.log(`\n=== ${module.title} (${module.name}) ===`);
  // Read by stryker/vitest.config.mts in Stryker's test runner processes, which inherit it.
  process.env.TANDEM_MUTATION_TESTS = (tests ?? module.tests).join(",");
  const stryker = new Stryker({
    testRunner: "vitest",
    plugins: ["@stryker-mutator/vitest-runner"],
    vitest: { configFile: "stryker/vitest.config.mts", related: false },
    mutate: narrowed ?? module.mutate,
    coverageAnalysis: "perTest",
    mutator: { excludedMutations: ["StringLiteral"] },
    concurrency,
    timeoutMS: 10_000,
    ignorePatterns: ["/.stryker-tmp", "/webview-ui", "/docs", "/bench", "/media", "/dist", "/reports", "/test/e2e", "/.test-output"],
    reporters: ["clear-text", "html", "json", "progress-append-only"],
    clearTextReporter: { allowColor: false, logTests: false, reportTests: false, reportScoreTable: true },
    htmlReporter: { fileName: `reports/mutation/${module.name}.html` },
    jsonReporter: { fileName: `reports/mutation/${module.name}.json` },
    incremental,
    incrementalFile: `reports/mutation/${module.name}.incremental.json`,
    tempDirName: `.stryker-tmp/${module.name}`,
    cleanTempDir: true,
  });
  const results = await stryker.runMutationTest();
  const { all, byFile } = scores(results);
  summary.push({ module, all, byFile });
}

console.log("\nMutation scores (killed / valid mutants, string literals left out):");
for (const { module, all, byFile } of summary) {
  console.log(`  ${module.title.padEnd(36)} ${pct(all).padStart(6)}  (${all.detected}/${all.total})`);
  for (const [file, s] of [...byFile].sort()) console.log(`    ${file.padEnd(58)} ${pct(s).padStart(6)}  (${s.detected}/${s.total})`);
}
