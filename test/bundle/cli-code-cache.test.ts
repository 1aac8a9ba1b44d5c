/**
 * The shipped `tandem` command (dist/cli.js) answers what needs no agent itself, and compiles the
 * agent's bundle (cli-main.js) only for the rest, with the V8 code cache the build made
 * (cli-main.js.cache). These check the cache is there and that this Node takes it, that a cache
 * V8 refuses only costs the compile, that --help and its kind run without the agent's bundle,
 * that `tandem checkpoints`, `--list-tasks` and `tandem export` run on their own small bundles, and that the bundles run through node:vm hold no native import() (which cannot run there on
 * Node 20).
 */
import { spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckpointStore } from "../../src/core/checkpoints";
import { TaskHistory } from "../../src/core/storage/task-history";
import { TaskStorage } from "../../src/core/storage/task-storage";
import type { CompiledBundle } from "../../src/core/util/cached-bundle";
import { ZERO_USAGE } from "../../src/shared/usage";
import { productionBundles } from "../support/bundles";

type Launcher = { compileCli(dir: string): CompiledBundle };
const launcherIn = (dir: string): Launcher => createRequire(import.meta.url)(join(dir, "cli.js")) as Launcher;

let temp: string;
let env: Record<string, string>;
beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), "tandem-code-cache-"));
  env = { PATH: process.env.PATH ?? "", HOME: temp };
});
afterAll(async () => {
  await rm(temp, { recursive: true, force: true });
});

const tandem = (dir: string, args: string[]) => spawnSync(process.execPath, [join(dir, "cli.js"), ...args], { encoding: "utf8", env, cwd: temp });

/** A folder with only these files of the shipped bundles. */
async function bundleWith(name: string, files: readonly string[]): Promise<string> {
  const dir = join(temp, name);
  await mkdir(dir);
  for (const file of files) await copyFile(join(productionBundles(), file), join(dir, file));
  return dir;
}

describe("the CLI's code cache", () => {
  it("ships beside the bundle, and this Node accepts it", async () => {
    const bundle = productionBundles();
    expect((await readFile(join(bundle, "cli-main.js.cache"))).length).toBeGreaterThan(100_000);
    expect(launcherIn(bundle).compileCli(bundle).cacheRejected).toBe(false);
  });

  it("is only a lost speed-up when V8 refuses it, or when it is missing: the agent works the same", async () => {
    const spare = await bundleWith("spare", ["cli.js", "cli-main.js"]);
    // Resuming a saved task is the agent's work: it loads cli-main.js, which finds none to resume.
    const resume = (dir: string) => tandem(dir, ["--resume", "last", "--storage", join(temp, "tasks"), "--cwd", temp]);
    const expected = resume(productionBundles());
    expect([expected.status, expected.stderr]).toEqual([64, expect.stringContaining("No saved tasks for this workspace")]);

    const missing = resume(spare);
    expect([missing.status, missing.stdout, missing.stderr]).toEqual([64, expected.stdout, expected.stderr]);

    await writeFile(join(spare, "cli-main.js.cache"), Buffer.alloc(4096, 7));
    expect(launcherIn(spare).compileCli(spare).cacheRejected).toBe(true);
    const refused = resume(spare);
    expect([refused.status, refused.stdout, refused.stderr]).toEqual([64, expected.stdout, expected.stderr]);
  });
});

describe("what the command answers without the agent's bundle", () => {
  it("--help, --version, mistakes in the arguments and `tandem models` need only cli.js", async () => {
    const alone = await bundleWith("alone", ["cli.js"]);
    const shipped = productionBundles();
    for (const args of [["--help"], ["--version"], ["models", "--provider", "anthropic"]]) {
      const run = tandem(alone, args);
      expect([run.status, run.stdout, run.stderr], args.join(" ")).toEqual([0, tandem(shipped, args).stdout, args[0] === "models" ? expect.any(String) : ""]);
    }
    expect(tandem(alone, ["--version"]).stdout).toMatch(/^tandem \d+\.\d+\.\d+\n$/);
    const mistakes = [["--plan", "--act", "go"], ["--cwd", join(temp, "nowhere"), "go"], ["--provider", "vertex", "go"], ["--no-such-option"]];
    for (const args of mistakes) {
      const run = tandem(alone, args);
      expect([run.status, run.stderr], args.join(" ")).toEqual([64, tandem(shipped, args).stderr]);
      expect(run.stderr, args.join(" ")).toMatch(/^tandem: /);
    }
    // The work of the agent does need it: the folder above really lacks the bundle.
    const task = tandem(alone, ["--resume", "last", "--cwd", temp]);
    expect(task.status).not.toBe(0);
    expect(task.stderr).toContain("cli-main.js");
  });
});

describe("`tandem checkpoints` without the agent's bundle", () => {
  it("lists and restores a saved task's checkpoints with only cli.js and cli-checkpoints.js", async () => {
    const light = await bundleWith("light", ["cli.js", "cli-checkpoints.js"]);
    const workspace = join(temp, "light-workspace");
    const storage = join(temp, "light-storage");
    await mkdir(workspace);
    await writeFile(join(workspace, "a.txt"), "first\n");
    const store = await CheckpointStore.open({ storageRoot: storage, workspaceRoot: workspace, taskId: "t1" });
    const first = await store.initialize();
    await writeFile(join(workspace, "a.txt"), "second\n");
    await writeFile(join(workspace, "b.txt"), "added\n");
    const last = (await store.save("round 1")).hash;
    await new TaskHistory(storage, (error) => {
      throw error;
    }).upsert({ id: "t1", text: "edit a.txt", startedAt: Date.now(), usage: ZERO_USAGE, status: "completed", workspace });
    await new TaskStorage(storage, "t1").saveChatMessages([
      { ts: 1, type: "say", say: "task", text: "edit a.txt", checkpoint: { hash: first, apiMessages: 0 } },
      { ts: 2, type: "say", say: "checkpoint_created", checkpoint: { hash: last, apiMessages: 0 } },
    ]);
    const checkpoints = (...args: string[]) => tandem(light, ["checkpoints", ...args, "--storage", storage, "--cwd", workspace]);

    const list = checkpoints("list");
    expect([list.status, list.stderr]).toEqual([0, ""]);
    expect(list.stdout).toMatch(/^\s*1\s.*2 changed: a\.txt, b\.txt$/m);
    const restore = checkpoints("restore", "0", "--scope", "files");
    expect([restore.status, restore.stdout, restore.stderr]).toEqual([0, "Restored 1 file and deleted 1 file added since.\n", ""]);
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("first\n");
    await expect(readFile(join(workspace, "b.txt"))).rejects.toThrow(/ENOENT/);
    // A mistake is told in words, with the failure's exit code, as the shipped command tells it.
    const wrong = checkpoints("restore", "5", "--scope", "files");
    expect([wrong.status, wrong.stderr]).toEqual([1, "tandem: Task t1 has checkpoints 0 to 1; there is no 5.\n"]);
    expect(tandem(productionBundles(), ["checkpoints", "restore", "5", "--scope", "files", "--storage", storage, "--cwd", workspace]).stderr).toBe(wrong.stderr);
  });
});

describe("`tandem --list-tasks` and `tandem export` without the agent's bundle", () => {
  it("list, search and export saved tasks with only cli.js and cli-history.js", async () => {
    const light = await bundleWith("light-history", ["cli.js", "cli-history.js"]);
    const storage = join(temp, "history-storage");
    await new TaskStorage(storage, "t1").saveChatMessages([
      { ts: 1, type: "say", say: "task", text: "Write the notes" },
      { ts: 2, type: "say", say: "text", text: "I wrote them in plain words." },
    ]);
    await new TaskHistory(storage, (error) => {
      throw error;
    }).upsert({ id: "t1", text: "Write the notes", startedAt: 1, usage: ZERO_USAGE, status: "completed", workspace: temp });
    const run = (...args: string[]) => tandem(light, [...args, "--storage", storage, "--cwd", temp]);
    const list = run("--list-tasks", "--search", "plain words");
    expect([list.status, list.stderr]).toEqual([0, ""]);
    expect(list.stdout).toMatch(/^t1 .*Write the notes\n {4}tandem: I wrote them in plain words\.$/m);
    const exported = run("export", "t1");
    expect([exported.status, exported.stderr]).toEqual([0, ""]);
    expect(exported.stdout).toMatch(/^# Write the notes\n/);
  });
});

describe("the bundles run through node:vm", () => {
  it("hold no import(): each became a require()", async () => {
    for (const file of ["cli-main.js", "cli-checkpoints.js", "cli-history.js", "core.js"]) {
      const text = await readFile(join(productionBundles(), file), "utf8");
      // Only a dependency's import of a computed name stays (the sandbox library's Windows backend);
      // the SDKs' messages quote `import('node:buffer')`, in backticks.
      expect([...text.matchAll(/(?<![`\w$.])import\((["'`])[^"'`]*\1\)/g)].map((m) => m[0]), file).toEqual([]);
    }
  });
});
