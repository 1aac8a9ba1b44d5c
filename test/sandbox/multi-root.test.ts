/**
 * Issue 30: the sandbox of a workspace of two folders (`--cwd main --root web`, YOLO, `--sandbox
 * on`): a command writes in both folders, not beside them; the second folder's guard files stay
 * read-only and its secret and ignored files stay unreadable, as the first's do.
 *
 *   npx vitest run test/sandbox/multi-root.test.ts
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandTurn, SandboxCli, toolResultIn, type SandboxRun } from "./sandbox-cli";

const COMMANDS = [
  "echo one > in-main.txt && echo two > ../web/in-web.txt && cat in-main.txt ../web/in-web.txt",
  "echo three > ../beside/out.txt; echo beside-exit-$?",
  // Reads the whole second folder without naming a file: what the sandbox hides must not show.
  "grep -rh MARK ../web; echo grep-done",
  "echo '{\"x\":1}' > ../web/.vscode/settings.json; echo vscode-exit-$?",
  "printf '#!/bin/sh\\nexit 1\\n' > ../web/.git/hooks/pre-commit; echo hook-exit-$?",
];

let base: string;
let run: SandboxRun;
const results: string[] = [];

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "tandem-sandbox-roots-"));
  const files: Record<string, string> = {
    "home/.bashrc": "# fake home\n",
    "main/README.md": "# main\n",
    "web/visible.txt": "MARK-visible\n",
    // Short values: the scrubber keeps out values of 8+ characters; these must be kept out by the sandbox itself.
    "web/.env": "K=MARKenv\n",
    "web/.tandemignore": "vault/\n",
    "web/vault/k.txt": "MARKvlt\n",
    "web/.vscode/settings.json": "{}\n",
    "beside/x.txt": "beside\n",
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(base, name)), { recursive: true });
    await writeFile(path.join(base, name), text);
  }
  execFileSync("git", ["init", "-q"], { cwd: path.join(base, "web") });
  run = await SandboxCli.shipped().run({
    home: path.join(base, "home"),
    ws: path.join(base, "main"),
    turns: COMMANDS.map((command, i) => commandTurn(command, {}, `call_${i}`)),
    args: ["--root", path.join(base, "web")],
  });
  for (let i = 1; i <= COMMANDS.length; i++) results.push(toolResultIn(run.requests, i) ?? "(no result)");
}, 120_000);

afterAll(() => rm(base, { recursive: true, force: true }));

describe("the sandbox with two workspace folders (YOLO, --sandbox on)", () => {
  it("ran every command, confined", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^Sandbox: on/m);
  });

  it("lets a command write in both folders, and not beside them", async () => {
    expect(await readFile(path.join(base, "main", "in-main.txt"), "utf8")).toBe("one\n");
    expect(await readFile(path.join(base, "web", "in-web.txt"), "utf8")).toBe("two\n");
    expect(results[0]).toContain("one\ntwo");
    expect(existsSync(path.join(base, "beside", "out.txt"))).toBe(false);
    expect(results[1]).toMatch(/beside-exit-[1-9]/);
  });

  it("keeps the second folder's secret and ignored files unreadable", () => {
    expect(results[2]).toContain("MARK-visible");
    expect(results[2]).toContain("grep-done");
    expect(results[2]).not.toContain("MARKenv");
    expect(results[2]).not.toContain("MARKvlt");
  });

  it("keeps the second folder's guard files read-only", async () => {
    expect(await readFile(path.join(base, "web", ".vscode", "settings.json"), "utf8")).toBe("{}\n");
    expect(results[3]).toMatch(/vscode-exit-[1-9]/);
    expect(existsSync(path.join(base, "web", ".git", "hooks", "pre-commit"))).toBe(false);
    expect(results[4]).toMatch(/hook-exit-[1-9]/);
  });
});
