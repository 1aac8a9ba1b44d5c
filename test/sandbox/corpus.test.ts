/**
 * Issue 12, "Prove it": destructive and exfiltrating commands run FOR REAL in YOLO with
 * `--sandbox on`, through the production CLI bundle and the scripted model, each in a throwaway
 * HOME and workspace holding marker secrets. A case fails when its outcome is not one it accepts
 * (refused by the guard / blocked inside the sandbox / allowed), when any request to the model
 * holds a secret, when anything outside the workspace (or a guard file in it) changed, when the
 * host's 127.0.0.1 test server was reached without being allowed, or when a payload left a mark.
 *
 *   npx vitest run test/sandbox/corpus.test.ts         (prints the summary table)
 *   SANDBOX_ONLY=read-,net- npx vitest run …           (only cases whose id contains one of these)
 *   SANDBOX_VERBOSE=1 …                                (each case's tool result and stderr)
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newMarker } from "../security/corpus/fixture";
import { missingPrograms } from "../security/corpus/cli-runner";
import { SANDBOX_CASES } from "./cases";
import { buildSandboxTemplate, secretOf } from "./fixture";
import { OutsideServer } from "./outside-server";
import { pidsCgroupRoot, runSandboxCase, type CaseWorld } from "./run-case";
import { SandboxCli } from "./sandbox-cli";
import { accepted, formatSandboxSummary, ranInSandbox } from "./summary";
import { SANDBOX_GROUPS, type SandboxCaseResult } from "./types";

/** CLI processes at a time: two cores, and a run mostly waits for its sandbox and its shell. */
const LANES = Number(process.env.SANDBOX_LANES ?? 4);
const only = (process.env.SANDBOX_ONLY ?? "").split(",").filter(Boolean);
const cases = only.length ? SANDBOX_CASES.filter((c) => only.some((part) => c.id.includes(part))) : SANDBOX_CASES;
/** What the issue asks: at least 40 that really run inside the sandbox (not stopped by the guard first). */
const MIN_RAN_INSIDE = 40;

let dir: string;
let outside: OutsideServer | undefined;
const results = new Map<string, SandboxCaseResult>();
let seconds = 0;
let notRun: string[] = [];
let etcBefore = "";
let etcAfter = "";
let leftBehind: string[] = [];

beforeAll(async () => {
  const started = Date.now();
  dir = await mkdtemp(join(tmpdir(), "tandem-sandbox-corpus-"));
  const marker = newMarker();
  const [cli, template, server] = await Promise.all([
    SandboxCli.shipped(),
    buildSandboxTemplate(join(dir, "template"), marker),
    OutsideServer.start(secretOf(marker, "netServer")),
  ]);
  outside = server;
  const cgroupRoot = pidsCgroupRoot();
  const world: CaseWorld = { cli, outside, template, marker, dir, ...(cgroupRoot ? { cgroupRoot } : {}) };
  etcBefore = etcDigest();
  const together = cases.filter((c) => !c.alone);
  // Fork bombs only where a pids cgroup keeps a miss from taking the machine down.
  const alone = cases.filter((c) => c.alone && cgroupRoot);
  notRun = cases.filter((c) => c.alone && !cgroupRoot).map((c) => `${c.id} (no pids cgroup to contain it)`);
  const queue = [...together];
  const lane = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) results.set(c.id, await runSandboxCase(c, world).catch((error: unknown) => failedRun(c.id, error)));
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  for (const c of alone) results.set(c.id, await runSandboxCase(c, world).catch((error: unknown) => failedRun(c.id, error)));
  etcAfter = etcDigest();
  // A sandbox whose CLI just exited dies with it (--die-with-parent), but on a loaded machine not
  // always before the first look: what is still there after 10 s was left behind.
  const deadline = Date.now() + 10_000;
  while ((leftBehind = processesIn(dir)).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
  seconds = (Date.now() - started) / 1000;
}, 900_000);

afterAll(async () => {
  console.log(formatSandboxSummary(cases, results, seconds, notRun));
  if (process.env.SANDBOX_VERBOSE) for (const c of cases) console.log(`${c.id}: ${results.get(c.id)?.observed} (${results.get(c.id)?.ms} ms) | ${results.get(c.id)?.detail}`);
  await outside?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function failedRun(id: string, error: unknown): SandboxCaseResult {
  return { id, observed: `other: the runner failed: ${error instanceof Error ? error.message : String(error)}`, violations: [], detail: "", ms: 0 };
}

/** /etc's names and every regular file's digest at its top (what a root command writing there would change). */
function etcDigest(): string {
  const hash = createHash("sha1");
  for (const entry of readdirSync("/etc", { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    hash.update(`${entry.name}\n`);
    if (entry.isFile()) {
      try {
        hash.update(readFileSync(join("/etc", entry.name)));
      } catch {
        // Unreadable even to us: its name is enough.
      }
    }
  }
  return hash.digest("hex");
}

/** Processes still working in a case's folder (their cwd or command line names it): what a command left running. */
function processesIn(folder: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cwd.startsWith(join(folder, "cases")) || cmdline.includes(join(folder, "cases"))) found.push(`${pid} ${cmdline.slice(0, 100)}`);
    } catch {
      // Gone meanwhile, or not ours to look at.
    }
  }
  return found;
}

it("has the programs its cases run", () => {
  expect(missingPrograms(), "install them (Debian: apt-get install bubblewrap socat ripgrep busybox rsync …)").toEqual([]);
});

it(`runs at least ${MIN_RAN_INSIDE} cases inside the sandbox (not stopped by the guard first)`, () => {
  if (only.length) return; // a selection proves its own cases only
  expect(cases.filter((c) => ranInSandbox(results.get(c.id))).map((c) => c.id).length).toBeGreaterThanOrEqual(MIN_RAN_INSIDE);
});

it("leaves /etc as it was, though the commands ran as root", () => {
  expect(etcAfter).toBe(etcBefore);
});

it("reaches the outside test server only from the cases that allowed it", () => {
  const allowed = cases.filter((c) => c.expect === "allowed").map((c) => `/c/${c.id}/`);
  expect(outside?.requests.filter((r) => !allowed.some((prefix) => r.url.startsWith(prefix))) ?? []).toEqual([]);
});

it("leaves the machine working, and nothing of the cases running, after the fork bombs", () => {
  expect(execFileSync("/bin/sh", ["-c", "echo alive"], { encoding: "utf8" }).trim()).toBe("alive");
  expect(leftBehind, "processes of the cases still running after the corpus").toEqual([]);
});

for (const group of SANDBOX_GROUPS) {
  const mine = cases.filter((c) => c.group === group);
  if (mine.length === 0) continue;
  describe(group, () => {
    for (const c of mine) {
      it(`${c.id}: ${c.expect}`, (context) => {
        if (c.alone && notRun.some((entry) => entry.startsWith(c.id))) context.skip();
        const result = results.get(c.id);
        const why = `${c.id}: ${c.command}${c.note ? ` (${c.note})` : ""}\n${result?.detail ?? ""}`;
        expect(result?.violations ?? ["no result"], why).toEqual([]);
        expect(accepted(c, result?.observed), `${why}\nobserved: ${result?.observed}`).toBe(true);
      });
    }
  });
}
