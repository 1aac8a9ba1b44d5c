/**
 * Checkpoints through the bundled CLI, as a person scripts them: a task that edits over two
 * rounds, `tandem checkpoints list`, `restore N --scope files|task`, then `--resume` from there.
 * The person's own repository stays byte-identical; without git the task still runs.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;

beforeAll(async () => {
  cli = await startCliHarness();
});

afterAll(async () => {
  await cli?.close();
});

const write = (path: string, content: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const done = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "P", GIT_AUTHOR_EMAIL: "p@x", GIT_COMMITTER_NAME: "P", GIT_COMMITTER_EMAIL: "p@x" } });

/** Every file under the person's .git, hashed: what must not change. */
async function fingerprint(folder: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    out[file] = createHash("sha256").update(await readFile(file)).digest("hex");
  }
  return out;
}

it("lists a task's checkpoints and restores files, then the task, which --resume continues", async () => {
  const workspace = await cli.workspace();
  await writeFile(join(workspace, "a.txt"), "zero\n");
  git(workspace, "init", "-q");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-qm", "person's commit");
  const before = await fingerprint(join(workspace, ".git"));
  const run = (...args: string[]) => cli.run(["--cwd", workspace, ...args]);

  await cli.script([write("a.txt", "one"), write("b.txt", "bee"), write("a.txt", "two"), done]);
  const task = await run("--yolo", "--sandbox", "off", "Edit a.txt");
  expect(task.code, task.stderr).toBe(0);

  const listed = await run("checkpoints", "list");
  expect(listed.code, listed.stderr).toBe(0);
  const lines = listed.stdout.trim().split("\n").slice(1);
  expect(lines).toHaveLength(4);
  expect(lines[0]).toMatch(/^\s*0\s.*task start/);
  expect(lines[1]).toMatch(/^\s*1\s.*1 changed: a\.txt/);
  expect(lines[2]).toMatch(/^\s*2\s.*1 changed: b\.txt/);

  const files = await run("checkpoints", "restore", "1", "--scope", "files");
  expect(files.code, files.stderr).toBe(0);
  expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("one\n");
  await expect(readFile(join(workspace, "b.txt"), "utf8")).rejects.toThrow();

  const rewound = await run("checkpoints", "restore", "1", "--scope", "task");
  expect(rewound.code, rewound.stderr).toBe(0);
  expect(rewound.stdout).toContain("--resume");
  await cli.script([done]);
  const resumed = await run("--yolo", "--sandbox", "off", "--resume", "last");
  expect(resumed.code, resumed.stderr).toBe(0);
  const last = (await cli.requests()).at(-1)?.body as { messages: unknown[] };
  // The model sees round 1 and the resumption, not the rounds after checkpoint 1.
  expect(last.messages).toHaveLength(3);
  expect(JSON.stringify(last.messages)).not.toContain("bee");

  expect(await fingerprint(join(workspace, ".git"))).toEqual(before);
  expect(git(workspace, "status", "--porcelain")).toBe(" M a.txt\n");
});

it("refuses a checkpoint that does not exist and a bad scope, with a clear message", async () => {
  const workspace = await cli.workspace();
  await cli.script([write("a.txt", "one"), done]);
  expect((await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "off", "Edit"])).code).toBe(0);
  const missing = await cli.run(["--cwd", workspace, "checkpoints", "restore", "7", "--scope", "files"]);
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toMatch(/checkpoints 0 to 1; there is no 7/);
  const scope = await cli.run(["--cwd", workspace, "checkpoints", "restore", "1", "--scope", "everything"]);
  expect(scope.code).toBe(64);
  expect(scope.stderr).toMatch(/--scope files\|task\|both; got "everything"/);
});

it("runs the task without checkpoints, saying so once, where git is not installed", async () => {
  const workspace = await cli.workspace();
  const bin = join(cli.dir, "bin-without-git");
  await mkdir(bin, { recursive: true });
  await symlink(process.execPath, join(bin, "node"));
  await cli.script([write("a.txt", "one"), write("a.txt", "two"), done]);
  const result = await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "off", "Edit"], { env: { PATH: bin } });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr.match(/checkpoints are off/gi)).toHaveLength(1);
  expect(result.stderr).toMatch(/git/);
  expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("two\n");
});
