/**
 * Security issue 29 through the bundled CLI: a file whose name is Latin-1, not UTF-8, is listed
 * among a checkpoint's changes (`tandem checkpoints list`, the byte shown as `\xe9`) and comes
 * back byte for byte from `tandem checkpoints restore 0 --scope files` after it was deleted.
 */
import { readFile, readdir, rm, writeFile } from "node:fs/promises";
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

const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` });
const done = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

/** `caf\xe9.txt` in Latin-1. */
const CAFE = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]);

it("lists and restores a file whose name is not UTF-8", async () => {
  const workspace = await cli.workspace();
  const cafe = Buffer.concat([Buffer.from(`${workspace}/`), CAFE]);
  await writeFile(cafe, "caf\xe9 au lait\n", "latin1");
  await writeFile(join(workspace, "plain.txt"), "plain\n");
  const original = await readFile(cafe);
  const run = (...args: string[]) => cli.run(["--cwd", workspace, ...args]);

  // The task's one round rewrites the Latin-1 file: a script of the person's (outside the
  // workspace) whose shell writes the name from octal.
  const script = join(cli.dir, `coffee-${Date.now()}.sh`);
  await writeFile(script, "printf 'noir\\n' > \"$(printf 'caf\\351.txt')\"\n");
  await cli.script([command(`sh ${script}`), done]);
  const task = await run("--yolo", "--sandbox", "off", "Change the coffee");
  expect(task.code, task.stderr).toBe(0);
  expect(await readFile(cafe, "utf8")).toBe("noir\n");

  const listed = await run("checkpoints", "list");
  expect(listed.code, listed.stderr).toBe(0);
  const lines = listed.stdout.trim().split("\n").slice(1);
  expect(lines[0]).toMatch(/^\s*0\s.*task start/);
  expect(lines[1]).toMatch(/^\s*1\s.*1 changed: caf\\xe9\.txt$/);

  await rm(cafe);
  const restored = await run("checkpoints", "restore", "0", "--scope", "files");
  expect(restored.code, restored.stderr).toBe(0);
  expect(await readFile(cafe)).toEqual(original);
  expect(await readFile(join(workspace, "plain.txt"), "utf8")).toBe("plain\n");
  expect((await readdir(workspace, { encoding: "buffer" })).map((name) => name.toString("hex")).sort()).toEqual([CAFE.toString("hex"), Buffer.from("plain.txt").toString("hex")].sort());
});
