/**
 * The shell facts the command policy relies on, checked in the real shells (bash 5.2, zsh): each
 * construct below runs a harmless payload (`touch` of a marker in a temp folder), and the policy
 * never lets it run without asking, and refuses it in YOLO where it says so. If a shell stops
 * running one of them, this says which; if the policy stops catching one, too.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { evaluateCommand } from "../../src/core/permissions";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "tandem-shell-facts-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const marker = () => path.join(dir, "ran");

/** Runs `line` the way the given shell would get it, in the temp folder. */
function runIn(shell: "bash -c" | "bash -i" | "zsh -c", line: string, env: NodeJS.ProcessEnv = {}): void {
  const options = { cwd: dir, env: { ...process.env, HOME: dir, ...env }, stdio: "pipe" as const, timeout: 10_000 };
  if (shell === "bash -i") spawnSync("bash", ["--norc", "-i"], { ...options, input: `${line}\n` });
  else spawnSync(shell.split(" ")[0] as string, ["-c", line], options);
}

function judged(line: string, shell: string, yolo = false) {
  return evaluateCommand(line, { workspaceRoot: dir, homeDir: dir, shell, interactiveShell: shell.endsWith("-i"), yolo });
}

describe("bash 5.2", () => {
  it("runs what follows a carriage return as a second command when interactive", () => {
    const line = `true\rtouch ${marker()}`;
    runIn("bash -i", line);
    expect(existsSync(marker())).toBe(true);
    expect(judged(line, "bash-i").decision).not.toBe("allow");
  });

  it("brings back earlier commands with history expansion when interactive", () => {
    runIn("bash -i", `touch ${marker()}\nrm ${marker()}\n!t`);
    expect(existsSync(marker())).toBe(true);
    expect(judged("echo !t", "bash-i").rule).toBe("hidden-text");
    expect(judged("echo !t", "bash-i", true).decision).toBe("deny");
  });

  it.each([
    ["prompt expansion", `x='$(touch ${"{m}"})'; echo "\${x@P}"`],
    ["an assigning expansion read back as a prompt (issue 11's example)", `echo "\${x=\\\`touch ${"{m}"}\\\`}\${x@P}"`],
    ["indirect expansion of an array subscript", `x='a[$(touch ${"{m}"})]'; echo \${!x}`],
    ["arithmetic on a variable holding a subscript", `x='a[$(touch ${"{m}"})]'; echo $((x))`],
  ])("runs code through %s", (_name, template) => {
    const line = template.replaceAll("{m}", marker());
    runIn("bash -c", line);
    expect(existsSync(marker()), line).toBe(true);
    expect(judged(line, "/bin/bash").decision).not.toBe("allow");
    expect(judged(line, "/bin/bash", true).decision).toBe("deny");
  });

  it("lets ripgrep run programs: --pre, and -z's decompressors found on PATH", () => {
    const pre = path.join(dir, "pre.sh");
    writeFileSync(pre, `#!/bin/sh\ntouch ${marker()}\ncat "$1"\n`);
    chmodSync(pre, 0o755);
    writeFileSync(path.join(dir, "a.txt"), "x\n");
    runIn("bash -c", `rg --pre ${pre} x a.txt`);
    expect(existsSync(marker())).toBe(true);
    expect(judged(`rg --pre ${pre} x a.txt`, "/bin/bash").decision).toBe("ask");

    rmSync(marker());
    writeFileSync(path.join(dir, "gzip"), `#!/bin/sh\ntouch ${marker()}\n`);
    chmodSync(path.join(dir, "gzip"), 0o755);
    writeFileSync(path.join(dir, "b.gz"), gzipSync("x\n"));
    runIn("bash -c", "rg -z x b.gz", { PATH: `${dir}:${process.env.PATH ?? ""}` });
    expect(existsSync(marker())).toBe(true);
    expect(judged("rg -z x b.gz", "/bin/bash").decision).toBe("ask");
  });
});

describe("zsh (installed by .ci/run)", () => {
  const hasZsh = spawnSync("zsh", ["-c", "true"]).status === 0;

  it("is installed", () => {
    expect(hasZsh, "zsh is missing: apt-get install zsh (.ci/run does)").toBe(true);
  });

  it.each([
    ["a glob qualifier", `ls *(e:'touch ${"{m}"}':)`],
    ["process substitution with =( )", `cat =(touch ${"{m}"})`],
  ])("runs code through %s", (_name, template) => {
    writeFileSync(path.join(dir, "f"), "");
    const line = template.replaceAll("{m}", marker());
    if (hasZsh) runIn("zsh -c", line);
    expect(existsSync(marker()), line).toBe(true);
    expect(judged(line, "/usr/bin/zsh").decision).not.toBe("allow");
    expect(judged(line, "/usr/bin/zsh", true).decision).toBe("deny");
    // Unknown shells count as maybe zsh.
    expect(evaluateCommand(line, { workspaceRoot: dir, homeDir: dir }).decision).not.toBe("allow");
  });

  it("expands =name to a program's path", () => {
    const out = hasZsh ? execFileSync("zsh", ["-c", "echo =ls"], { encoding: "utf8" }).trim() : "";
    expect(out).toMatch(/\/ls$/);
    expect(judged("cat =ls", "/usr/bin/zsh").decision).toBe("ask");
    expect(judged("cat =ls", "/bin/bash").decision).toBe("allow");
  });
});
