/**
 * Tandem's own git calls run no program a repository names. A command (or a planted `commondir`
 * or `config.worktree`) can leave a file-system monitor, an external diff or a pager in the
 * repository's settings; `@git-changes` runs git outside the sandbox, so it must switch them off.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
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

it("@git-changes shows the changes without running the repository's fsmonitor, external diff or pager", async () => {
  const workspace = await cli.workspace();
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=P", "-c", "user.email=p@x", ...args], { cwd: workspace, encoding: "utf8" });
  await writeFile(join(workspace, "a.txt"), "one\n");
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "first");
  await writeFile(join(workspace, "a.txt"), "two\n");
  const marker = (name: string) => join(workspace, `ran-${name}`);
  git("config", "core.fsmonitor", `touch '${marker("fsmonitor")}'; false`);
  git("config", "diff.external", `sh -c "touch '${marker("external-diff")}'"`);
  git("config", "core.pager", `touch '${marker("pager")}'; cat`);
  git("config", "core.hooksPath", join(workspace, "hooks"));
  // The planted monitor really runs for a plain git:
  git("status", "--short");
  expect(existsSync(marker("fsmonitor"))).toBe(true);
  execFileSync("rm", [marker("fsmonitor")]);

  await cli.script([{ text: "<attempt_completion>\n<result>Seen.</result>\n</attempt_completion>" }]);
  const run = await cli.run(["--cwd", workspace, "--sandbox", "off", "What changed? @git-changes"]);
  expect(run.code, run.stderr).toBe(0);
  const sent = JSON.stringify((await cli.requests()).at(-1));
  expect(sent).toContain("-one");
  expect(sent).toContain("+two");
  for (const name of ["fsmonitor", "external-diff", "pager"]) expect(existsSync(marker(name)), name).toBe(false);
});
