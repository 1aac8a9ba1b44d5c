/**
 * `tandem --resume TASK_ID --from N "edited message"` through the CLI bundle: the task goes back
 * to where the person's Nth message was said (its files too, unless --keep-files) and goes on
 * from the edited text; a number out of range lists the person's messages.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { requestText, startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;

beforeAll(async () => {
  cli = await startCliHarness();
});

afterAll(async () => {
  await cli?.close();
});

const write = (path: string, content: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

it("goes on from an edited reply, with the files as they were then, and says what it put back", async () => {
  const workspace = await cli.workspace();
  await cli.script([write("a.txt", "one"), done("Wrote a.txt.")]);
  expect((await cli.run(["--cwd", workspace, "--yolo", "Write a.txt"])).code).toBe(0);
  await cli.script([write("b.txt", "OLD-REPLY-FILE"), done("Wrote b.txt.")]);
  expect((await cli.run(["--resume", "last", "--cwd", workspace, "--yolo", "Also write b.txt"])).code).toBe(0);
  expect(existsSync(join(workspace, "b.txt"))).toBe(true);

  const before = (await cli.requests()).length;
  await cli.script([write("c.txt", "see"), done("Wrote c.txt.")]);
  const edited = await cli.run(["--resume", "last", "--from", "2", "--cwd", workspace, "--yolo", "Also write c.txt"]);
  expect(edited.code, edited.stderr).toBe(0);
  expect(edited.stderr).toMatch(/from your message 2, edited/);
  expect(edited.stderr).toMatch(/deleted 1 file added since/);
  expect(existsSync(join(workspace, "b.txt"))).toBe(false);
  expect(await readFile(join(workspace, "c.txt"), "utf8")).toBe("see\n");
  const next = requestText((await cli.requests())[before]!);
  expect(next).toContain("Also write c.txt");
  expect(next).not.toContain("Also write b.txt");
  expect(next).not.toContain("OLD-REPLY-FILE");
  expect(next).toContain("Write a.txt");
});

it("keeps the files with --keep-files, and refuses a message number the task does not have, listing its messages", async () => {
  const workspace = await cli.workspace();
  await cli.script([write("a.txt", "KEPT"), done("Wrote a.txt.")]);
  expect((await cli.run(["--cwd", workspace, "--yolo", "Write a.txt"])).code).toBe(0);

  const missing = await cli.run(["--resume", "last", "--from", "3", "--cwd", workspace, "--yolo", "Something"]);
  expect(missing.code).toBe(64);
  expect(missing.stderr).toContain("The task has 1 message of yours, so there is no message 3:\n  1: Write a.txt");
  const bad = await cli.run(["--resume", "last", "--from", "x", "--cwd", workspace, "Something"]);
  expect(bad.code).toBe(64);
  expect(bad.stderr).toContain('--from needs a message number (1 is the task itself), not "x".');

  await cli.script([write("z.txt", "zed"), done("Wrote z.txt.")]);
  const again = await cli.run(["--resume", "last", "--from", "1", "--keep-files", "--cwd", workspace, "--yolo", "Write z.txt instead"]);
  expect(again.code, again.stderr).toBe(0);
  expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("KEPT\n");
  expect(await readFile(join(workspace, "z.txt"), "utf8")).toBe("zed\n");
  const last = requestText((await cli.requests()).at(-2)!);
  expect(last).toContain("Write z.txt instead");
  expect(last).toContain("The files were NOT put back");
});
