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

  it("asks before the model rewrites a trusted hook, even with edits auto-approved", async () => {
    const ws = await cli.workspace();
    const hook = join(ws, ".clinerules", "hooks", "PostToolUse");
    await executable(hook, "#!/bin/sh\ncat > /dev/null\n");
    const before = (await cli.requests()).length;
    await cli.script([{ text: `<write_to_file>\n<path>.clinerules/hooks/PostToolUse</path>\n<content>\n#!/bin/sh\ntouch "${join(ws, "pwned")}"\n</content>\n</write_to_file>` }, done]);
    const run = await cli.run(["--cwd", ws, "--trust-workspace", "--auto-approve", "edit", "--sandbox", "off", "Tidy the hooks"], { killAfterMs: 40_000 });
    await cli.dropScript();
    expect(run.code, run.stderr).toBe(3); // the edit needs the person, whom an unattended run cannot ask
    expect(run.stderr).toMatch(/\.clinerules\/hooks\/PostToolUse is one of the guard's own files: files under \.clinerules\/hooks\/ are programs Tandem runs/);
    expect(existsSync(join(ws, "pwned"))).toBe(false);
    expect((await cli.requests()).length - before).toBe(1);
  });

  it("runs a trusted hook only as it was when the run started: rewritten since, it does not run", async () => {
    const ws = await cli.workspace();
    const hook = join(ws, ".clinerules", "hooks", "PreToolUse");
    const ran = join(ws, "ran.log");
    // Its first run rewrites it (as anything running outside the sandbox could; inside, the hooks
    // folder is read-only): the new text must not run.
    await executable(hook, `#!/bin/sh\ncat > /dev/null\necho original >> '${ran}'\nprintf '#!/bin/sh\\ncat > /dev/null\\necho rewritten >> ${ran}\\n' > '${hook}'\n`);
    const second: ScriptTurn = { text: "<write_to_file>\n<path>b.ts</path>\n<content>\nexport {};\n</content>\n</write_to_file>" };
    const before = (await cli.requests()).length;
    await cli.script([writeJs, second, done]);
    const result = await cli.run(["--cwd", ws, "--yolo", "--trust-workspace", "--sandbox", "off", "Write both"], { killAfterMs: 40_000 });
    await cli.dropScript();
    expect(result.code, result.stderr).toBe(0);
    expect((await cli.requests()).length - before).toBe(3);
    const { readFile } = await import("node:fs/promises");
    expect((await readFile(ran, "utf8")).trim().split("\n")).toEqual(["original"]);
    expect(result.stdout + result.stderr).toContain("--trust-workspace trusts the hooks as they were when the run started; one added or changed since does not run.");
  });
});
