/**
 * Issue 12, "Prove it": everyday work still runs inside the sandbox. Each task runs through the
 * production CLI in YOLO with `--sandbox on`, in a throwaway HOME and a small npm project under
 * git: `npm ci` of one dependency (a local package, test/fixtures/is-answer, so no test needs the
 * registry), `npm test`,
 * `git status`, `git commit` (objects writable; the hook a command tries to plant is not), a build
 * writing dist/, reading the workspace, and the task's TMPDIR. Each checks the disk and that the
 * output reached the model.
 *
 *   npx vitest run test/sandbox/everyday.test.ts
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandTurn, sandboxLine, SandboxCli, toolResultIn, type SandboxRun } from "./sandbox-cli";

/** The one dependency: packed from test/fixtures/is-answer into vendor/, installed by npm ci from there. */
const TARBALL = "is-answer-1.0.0.tgz";
const FIXTURE = path.join(import.meta.dirname, "../fixtures/is-answer");

const PACKAGE = {
  name: "demo",
  version: "1.0.0",
  private: true,
  scripts: { test: "node test.js", build: "node build.js" },
  dependencies: { "is-answer": `file:vendor/${TARBALL}` },
};

/** What `npm install --package-lock-only` writes for the tarball with this integrity. */
function lockFor(integrity: string): object {
  return {
    name: "demo",
    version: "1.0.0",
    lockfileVersion: 3,
    requires: true,
    packages: {
      "": { name: "demo", version: "1.0.0", dependencies: PACKAGE.dependencies },
      "node_modules/is-answer": { version: "1.0.0", resolved: `file:vendor/${TARBALL}`, integrity, license: "MIT" },
    },
  };
}

const FILES: Record<string, string> = {
  "package.json": `${JSON.stringify(PACKAGE, null, 2)}\n`,
  ".gitignore": "node_modules/\ndist/\n",
  "README.md": "# demo\n",
  "src/index.js": "module.exports = function answer() {\n  return 'the answer is 42';\n};\n",
  "test.js": "const answer = require('./src/index.js');\nif (answer() !== 'the answer is 42') process.exit(1);\nconsole.log('demo tests: 1 passed');\n",
  "build.js":
    "const fs = require('fs');\nfs.mkdirSync('dist', { recursive: true });\nfs.writeFileSync('dist/app.js', fs.readFileSync('src/index.js'));\nconsole.log('built dist/app.js');\n",
};

interface Task {
  readonly commands: readonly string[];
  /** More CLI arguments, given the task's HOME. */
  readonly args?: (home: string) => string[];
  /** Folders to create in HOME first. */
  readonly homeFolders?: readonly string[];
}

/** Each task in a workspace and HOME of its own, all run side by side. */
const TASKS = {
  // With the settings as they come: npm keeps its cache in ~/.npm.
  npmCiDefault: { commands: ["npm ci --no-audit --no-fund"] },
  // As the issue suggests: the person lists npm's cache (a folder a machine that used npm has).
  npmCi: {
    commands: ["npm ci --no-audit --no-fund", "node -e \"console.log('is-answer says', require('is-answer')(42))\""],
    args: (home) => ["--sandbox-write", path.join(home, ".npm")],
    homeFolders: [".npm"],
  },
  npmTest: { commands: ["npm test"] },
  gitStatus: { commands: ["echo more >> README.md && git status"] },
  gitCommit: {
    commands: [
      // The hook write goes through an interpreter, which the guard lets run: the sandbox must stop it.
      "python3 -c \"open('.git/hooks/pre-commit', 'w').write('#!/bin/sh\\nexit 1\\n')\"; echo hook-write-exit-$?",
      "echo change >> README.md && git add -A && git commit -q -m 'work in the sandbox' && git log --oneline -1",
    ],
  },
  // Only tracked files: what git adds does not depend on what else the workspace shows.
  gitCommitTracked: { commands: ["echo change >> README.md && git commit -q -am 'tracked change' && git log --oneline -1"] },
  build: { commands: ["npm run build"] },
  read: { commands: ["cat src/index.js && ls src"] },
  tmpdir: { commands: ['echo tmp-ok > "$TMPDIR/note.txt" && cat "$TMPDIR/note.txt" && echo "TMPDIR=$TMPDIR"'] },
} satisfies Record<string, Task>;

type TaskName = keyof typeof TASKS;

interface TaskRun {
  readonly ws: string;
  readonly home: string;
  readonly run: SandboxRun;
  /** What the model got back for each command, in order. */
  readonly results: readonly string[];
}

let dir: string;
const runs = new Map<TaskName, TaskRun>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tandem-sandbox-everyday-"));
  const cli = SandboxCli.shipped();
  execFileSync("npm", ["pack", FIXTURE, "--pack-destination", dir, "--silent"], { stdio: "ignore" });
  const tarball = path.join(dir, TARBALL);
  const lock = lockFor(`sha512-${createHash("sha512").update(await readFile(tarball)).digest("base64")}`);
  await Promise.all(
    (Object.entries(TASKS) as [TaskName, Task][]).map(async ([name, task]) => {
      const { ws, home } = await project(path.join(dir, name), tarball, lock);
      for (const folder of task.homeFolders ?? []) await mkdir(path.join(home, folder), { recursive: true });
      const run = await cli.run({
        home,
        ws,
        turns: task.commands.map((command, i) => commandTurn(command, {}, `call_${i}`)),
        args: task.args?.(home) ?? [],
        timeoutMs: 120_000,
      });
      runs.set(name, { ws, home, run, results: task.commands.map((_, i) => toolResultIn(run.requests, i + 1) ?? "(no result)") });
    }),
  );
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function project(root: string, tarball: string, lock: object): Promise<{ ws: string; home: string }> {
  const ws = path.join(root, "ws");
  const home = path.join(root, "home");
  for (const [rel, content] of Object.entries({ ...FILES, "package-lock.json": `${JSON.stringify(lock, null, 2)}\n` })) {
    await mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
    await writeFile(path.join(ws, rel), content);
  }
  await mkdir(path.join(ws, "vendor"));
  await copyFile(tarball, path.join(ws, "vendor", TARBALL));
  await mkdir(home, { recursive: true });
  await writeFile(path.join(home, ".gitconfig"), "[user]\n\tname = Demo\n\temail = demo@example.invalid\n");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ws, stdio: "ignore", env: { ...process.env, HOME: home } });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
  return { ws, home };
}

function get(name: TaskName): TaskRun {
  const found = runs.get(name);
  if (!found) throw new Error(`${name} did not run`);
  return found;
}

/** The run's facts for a failure message. */
function about(name: TaskName): string {
  const { run, results } = get(name);
  return `exit ${run.code}; ${sandboxLine(run.stderr) ?? "no Sandbox line"}\nresults:\n${results.join("\n---\n")}\nstderr: ${run.stderr.slice(-1500)}`;
}

describe("everyday work inside the sandbox (YOLO, --sandbox on)", () => {
  it("every task ran with the sandbox on and completed", () => {
    for (const name of Object.keys(TASKS) as TaskName[]) {
      const { run } = get(name);
      expect(sandboxLine(run.stderr), `${name}: ${about(name)}`).toMatch(/^Sandbox: on \(bubblewrap\)/);
      expect(run.code, `${name}: ${about(name)}`).toBe(0);
    }
  });

  it("npm ci works with the sandbox's default settings", () => {
    const { ws, results } = get("npmCiDefault");
    expect(results[0], about("npmCiDefault")).toMatch(/added 1 package/);
    expect(existsSync(path.join(ws, "node_modules/is-answer/package.json")), about("npmCiDefault")).toBe(true);
  });

  it("npm ci installs the project's dependency with ~/.npm listed as writable, and it loads", () => {
    const { ws, results } = get("npmCi");
    const installed = path.join(ws, "node_modules/is-answer/package.json");
    expect(existsSync(installed), about("npmCi")).toBe(true);
    expect((JSON.parse(readFileSync(installed, "utf8")) as { version: string }).version).toBe("1.0.0");
    expect(results[0], about("npmCi")).toMatch(/added 1 package/);
    expect(results[1], about("npmCi")).toContain("is-answer says true");
  });

  it("npm test runs the project's tests and the model reads their output", () => {
    expect(get("npmTest").results[0], about("npmTest")).toContain("demo tests: 1 passed");
  });

  it("git status shows the change, and no files that are not there", () => {
    const result = get("gitStatus").results[0] ?? "";
    expect(result, about("gitStatus")).toMatch(/modified:\s+README\.md/);
    // The workspace holds no untracked files: whatever git lists as untracked, the sandbox made up.
    expect(result, about("gitStatus")).not.toContain("Untracked files");
  });

  it("git commit writes .git/objects while the hook a command plants is refused", () => {
    const { ws, home, results } = get("gitCommit");
    expect(results[0], about("gitCommit")).toMatch(/read-only file system|permission denied|EROFS|EACCES/i);
    expect(existsSync(path.join(ws, ".git/hooks/pre-commit")), "the hook must not have been written").toBe(false);
    expect(results[1], about("gitCommit")).toContain("work in the sandbox");
    const log = execFileSync("git", ["log", "--format=%s", "-1"], { cwd: ws, encoding: "utf8", env: { ...process.env, HOME: home } }).trim();
    expect(log).toBe("work in the sandbox");
  });

  it("git commit -a of a tracked change writes .git/objects", () => {
    const { ws, home, results } = get("gitCommitTracked");
    expect(results[0], about("gitCommitTracked")).toContain("tracked change");
    const log = execFileSync("git", ["log", "--format=%s", "-1"], { cwd: ws, encoding: "utf8", env: { ...process.env, HOME: home } }).trim();
    expect(log).toBe("tracked change");
  });

  it("a build writes dist/", () => {
    const { ws, results } = get("build");
    expect(results[0], about("build")).toContain("built dist/app.js");
    expect(readFileSync(path.join(ws, "dist/app.js"), "utf8")).toContain("the answer is 42");
  });

  it("reading the workspace's files works", () => {
    const result = get("read").results[0] ?? "";
    expect(result, about("read")).toContain("the answer is 42");
    expect(result, about("read")).toContain("index.js");
  });

  it("the task's TMPDIR is writable, and is neither the workspace nor /tmp itself", () => {
    const { ws, results } = get("tmpdir");
    const result = results[0] ?? "";
    expect(result, about("tmpdir")).toContain("tmp-ok");
    const tmp = /TMPDIR=(\S+)/.exec(result)?.[1] ?? "";
    expect(tmp, about("tmpdir")).not.toBe("");
    expect(path.resolve(tmp)).not.toBe("/tmp");
    expect(path.resolve(tmp).startsWith(ws)).toBe(false);
  });
});
