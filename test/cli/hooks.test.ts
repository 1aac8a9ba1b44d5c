/**
 * Hooks through the bundled CLI: the global hooks folder ($XDG_DATA_HOME/tandem/hooks/) always
 * runs; a workspace's .tandem/hooks/ runs only with --trust-workspace, and the run says so once
 * otherwise. Each hook run is a one-line summary on stdout.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurn } from "../support/script";
import { requestText, startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const writeJs: ScriptTurn = { text: "<write_to_file>\n<path>app.js</path>\n<content>\nconsole.log(1);\n</content>\n</write_to_file>" };
const done: ScriptTurn = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };

const BLOCK_JS = `#!/usr/bin/env bash
input=$(cat)
if printf '%s' "$input" | grep -q '"toolName":"write_to_file"' && printf '%s' "$input" | grep -Eq '"path":"[^"]*\\.js"'; then
  echo '{"cancel": true, "errorMessage": "Writes to .js files are blocked in this repository; write TypeScript."}'
fi
`;

async function executable(file: string, text: string): Promise<void> {
  await mkdir(join(file, ".."), { recursive: true });
  await writeFile(file, text);
  await chmod(file, 0o755);
}

async function run(args: string[], env: Record<string, string>) {
  const before = (await cli.requests()).length;
  await cli.script([writeJs, done]);
  const result = await cli.run(args, { env, killAfterMs: 40_000 });
  await cli.dropScript();
  return { ...result, requests: (await cli.requests()).slice(before) };
}

describe("tandem with hooks", { timeout: 90_000 }, () => {
  it("runs the global hooks; the workspace's only with --trust-workspace", async () => {
    const data = join(cli.dir, "data-hooks");
    await executable(join(data, "tandem", "hooks", "TaskStart"), `#!/bin/sh\ncat > /dev/null\necho '{"contextModification":"GLOBAL-HOOK-CONTEXT"}'\n`);
    const env = { XDG_DATA_HOME: data };

    const untrusted = await cli.workspace();
    await executable(join(untrusted, ".tandem", "hooks", "PreToolUse"), BLOCK_JS);
    const plain = await run(["--cwd", untrusted, "--yolo", "Write the app"], env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(requestText(plain.requests[0]!)).toContain("GLOBAL-HOOK-CONTEXT");
    expect(existsSync(join(untrusted, "app.js"))).toBe(true);
    const said = plain.stdout + plain.stderr;
    expect(said.match(/were not run/g)).toHaveLength(1);
    expect(said).toContain("--trust-workspace");
    expect(plain.stdout).toMatch(/\[hook\] TaskStart hook .*tandem\/hooks\/TaskStart ran/);

    const trusted = await cli.workspace();
    await executable(join(trusted, ".tandem", "hooks", "PreToolUse"), BLOCK_JS);
    const guarded = await run(["--cwd", trusted, "--yolo", "--trust-workspace", "Write the app"], env);
    expect(guarded.code, guarded.stderr).toBe(0);
    expect(existsSync(join(trusted, "app.js"))).toBe(false);
    expect(requestText(guarded.requests[1]!)).toContain("Writes to .js files are blocked in this repository");
    expect(guarded.stdout).toMatch(/\[hook\] PreToolUse hook .*\.tandem\/hooks\/PreToolUse cancelled: Writes to \.js files are blocked/);
    expect(guarded.stdout + guarded.stderr).not.toContain("were not run");
  });
});
