/**
 * Small things a newcomer trips over (issue 32), each through the CLI bundle.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { requestText, startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;

beforeAll(async () => {
  cli = await startCliHarness();
});

afterEach(async () => {
  await cli.dropScript();
});

afterAll(async () => {
  await cli?.close();
});

const done = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

it("a refusal names the ignore file whose rule matched (.clineignore, not .tandemignore)", async () => {
  const workspace = await cli.workspace();
  await writeFile(join(workspace, ".clineignore"), "drafts/\n");
  await writeFile(join(workspace, ".tandemignore"), "*.log\n");
  await cli.script([{ text: "<read_file>\n<path>drafts/plan.md</path>\n</read_file>" }, done]);
  const before = (await cli.requests()).length;
  const run = await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "off", "--no-storage", "Read the plan"]);
  expect(run.code, run.stderr).toBe(0);
  expect(requestText((await cli.requests())[before + 1]!)).toContain("drafts/plan.md is ignored by .clineignore, so tools may not touch it.");
});

it("prints a checkpoint by its number and id, not a bare 'checkpoint_created:' line", async () => {
  const workspace = await cli.workspace();
  await cli.script([{ text: "<write_to_file>\n<path>a.txt</path>\n<content>\none\n</content>\n</write_to_file>" }, done]);
  const run = await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "off", "Write a.txt"]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).not.toMatch(/checkpoint_created/);
  expect(run.stdout).toMatch(/^\[checkpoint 1\] [0-9a-f]{8} saved \(tandem checkpoints restore 1 puts it back\)$/m);
});

it("an unknown tool tag is named back to the model, with the tools it has", async () => {
  const workspace = await cli.workspace();
  await cli.script([{ text: "Let me look at the page.\n<browser_action>\n<action>launch</action>\n<url>http://localhost:3000</url>\n</browser_action>" }, done]);
  const before = (await cli.requests()).length;
  const run = await cli.run(["--cwd", workspace, "--yolo", "--sandbox", "off", "--no-storage", "Check the page"]);
  expect(run.code, run.stderr).toBe(0);
  const next = requestText((await cli.requests())[before + 1]!);
  expect(next).toContain("Your last message used <browser_action>, which is not a tool here, so nothing was run.");
  expect(next).toMatch(/The tools you have are: read_file, write_to_file, .*attempt_completion/);
  expect(next).not.toContain("did not use a tool");
});
