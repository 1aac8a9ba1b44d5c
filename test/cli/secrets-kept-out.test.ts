/**
 * Known secrets never reach the model, through the CLI bundle with no sandbox to hide them: a
 * committed `.env` printed by `git log -p`, a cloud credentials file read through a link out of
 * the workspace, a token in the CLI's own environment, an AWS key id in a source file. Each
 * reaches the model as a marker naming its source; ordinary values of the same `.env` still read
 * as they are; and a write that would put a marker where the secret is, is refused.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startCliHarness, requestText, type CliHarness } from "./cli-harness";

let cli: CliHarness;

beforeAll(async () => {
  cli = await startCliHarness();
});

afterAll(async () => {
  await cli?.close();
});

const DB_PASSWORD = "Tr0ub4dor-and-3-more";
const CLOUD_SECRET = "wJalrXUtnFEMIK7MDENGbPxRfiCY0000sEcReT";
const OWN_TOKEN = "own-token-value-4321";
const AWS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";

it("takes the workspace's, the environment's and the token-shaped secrets out of what the model reads, and refuses to write a marker back", async () => {
  const workspace = await cli.workspace();
  const outside = join(cli.dir, "cloud");
  await mkdir(outside);
  await writeFile(join(outside, "credentials"), `[default]\naws_secret_access_key = ${CLOUD_SECRET}\n`);
  await symlink(outside, join(workspace, "cloud"));
  const env = `NODE_ENV=production\nDB_PASSWORD=${DB_PASSWORD}\n`;
  await writeFile(join(workspace, ".env"), env);
  await writeFile(join(workspace, "config.js"), `module.exports = { keyId: "${AWS_KEY_ID}" };\n`);
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=P", "-c", "user.email=p@x", ...args], { cwd: workspace, encoding: "utf8" });
  git("init", "-q");
  git("add", "-f", ".env", "config.js");
  git("commit", "-qm", "oops, the .env");

  await cli.script([
    { text: "<execute_command>\n<command>git log -p | cat; cat */*; cat config.js; printenv OWN_SERVICE_TOKEN</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
    { text: "<write_to_file>\n<path>.env</path>\n<content>NODE_ENV=test\nDB_PASSWORD=[secret removed: DB_PASSWORD in .env]\n</content>\n</write_to_file>" },
    { text: "<attempt_completion>\n<result>Looked.</result>\n</attempt_completion>" },
  ]);
  const run = await cli.run(["--cwd", workspace, "--sandbox", "off", "--yolo", "Show me the history"], { env: { OWN_SERVICE_TOKEN: OWN_TOKEN } });
  expect(run.code, run.stderr).toBe(0);
  const [, afterCommand, afterWrite] = (await cli.requests()).map(requestText);
  // The command ran for real: the person sees its output, the model reads markers.
  expect(run.stdout).toContain(AWS_KEY_ID);
  for (const secret of [DB_PASSWORD, CLOUD_SECRET, OWN_TOKEN, AWS_KEY_ID]) expect(afterCommand, secret).not.toContain(secret);
  for (const marker of ["DB_PASSWORD in .env", "aws_secret_access_key in ~/cloud/credentials", "OWN_SERVICE_TOKEN in the environment", "an AWS access key id"]) {
    expect(afterCommand).toContain(`[secret removed: ${marker}]`);
  }
  expect(afterCommand).toContain("NODE_ENV=production");
  expect(run.stdout).toMatch(/Kept from the model: .*DB_PASSWORD in \.env/);
  // The marker stands for a value the model never had: writing it would destroy the secret.
  expect(afterWrite).toContain("stands for a secret Tandem kept from you");
  expect(await readFile(join(workspace, ".env"), "utf8")).toBe(env);
});
