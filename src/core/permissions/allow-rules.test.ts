import { describe, expect, it } from "vitest";
import { evaluateCommand } from "./index";

/**
 * The allow-list's own judgement, by the reason it gives: the decision alone cannot tell which
 * check refused a command, and a check that stopped working would hide behind the others.
 */
const POLICY = { workspaceRoot: "/work/ws", homeDir: "/home/dev" };
const judged = (command: string, allowList?: string[]) => evaluateCommand(command, allowList ? { ...POLICY, allowList } : POLICY);
const reasonOf = (command: string, allowList?: string[]) => judged(command, allowList).reason;

describe("the allow-list", () => {
  it("refuses strings only, and reads a rule's words however they are spaced", () => {
    expect(() => judged("ls", [42 as unknown as string])).toThrow("allowList entries must be strings, got number");
    expect(judged("git status", ["  git   status  "]).decision).toBe("allow");
    expect(judged("git status", ["git\tstatus"]).decision).toBe("allow");
  });

  it("never allows what elevates or runs other code, even when a custom list names it", () => {
    expect(reasonOf("sudo ls", ["sudo", "ls"])).toBe("`sudo` runs a command with elevated privileges");
    for (const name of ["eval", "exec", "source", ".", "su"]) {
      expect(judged(`${name} x`, [name, "x"]).decision, name).toBe("ask");
      expect(reasonOf(`${name} x`, [name, "x"]), name).toContain(`\`${name}\` runs other code`);
    }
  });

  it("does not trust a program run by path to be the one the list names", () => {
    expect(reasonOf("./ls", ["./ls"])).toBe("`./ls` is run by path, so it may not be the program the allow-list names");
  });

  it("names the command that is not on the list by its leading words", () => {
    expect(reasonOf("npm install")).toBe("`npm install` is not on the read-only allow-list");
    expect(reasonOf("npm i1")).toBe("`npm i1` is not on the read-only allow-list");
    expect(reasonOf("npm run-x")).toBe("`npm run-x` is not on the read-only allow-list");
    for (const command of ["npm", "npm --x", "npm Install", "npm 1a", "npm a.b"]) {
      expect(reasonOf(command), command).toBe("`npm` is not on the read-only allow-list");
    }
  });

  it("skips git's harmless global options, and refuses the others", () => {
    for (const command of ["git --no-pager log", "git --no-optional-locks status", "git --literal-pathspecs log", "git -C sub log"]) {
      expect(judged(command).decision, command).toBe("allow");
    }
    expect(judged("git --no-pager", ["git"]).decision, "nothing but globals").toBe("allow");
    expect(judged("git -C", ["git"]).decision, "-C without its folder").toBe("allow");
    expect(reasonOf("git -c core.pager=id log")).toBe("`git` with global options that can change what it runs");
    expect(reasonOf("git $X log"), "an unknown word is no global option").toBe("`git` is not on the read-only allow-list");
  });

  it("refuses a guarded command with an argument only known at run time", () => {
    expect(reasonOf("find . -name $X")).toBe("`find` has an argument only known at run time");
    expect(judged("find . -name '*.ts'").decision).toBe("allow");
  });

  it("refuses env -S, which runs a command line given as a string, and only that", () => {
    expect(reasonOf("env -S 'ls'", ["env", "ls"])).toBe("`env -S` runs a command line given as a string");
    expect(reasonOf("env -iS ls", ["env", "ls"])).toBe("`env -S` runs a command line given as a string");
    expect(reasonOf("env --split-string=ls", ["env", "ls"])).toBe("`env -S` runs a command line given as a string");
    expect(judged("env ls a-S", ["env", "ls"]).decision, "an argument that merely contains -S").toBe("allow");
    expect(judged("ls -S").decision, "ls -S sorts by size").toBe("allow");
  });

  it("judges what an allowed wrapper runs", () => {
    expect(reasonOf("nice -n 5 rm x", ["nice"])).toBe("`nice` runs a command that is not allowed: `rm x` is not on the read-only allow-list");
    expect(judged("nice ls", ["nice", "ls"]).decision).toBe("allow");
  });

  it("never allows a wrapper whose command is only known at run time, even reading outside the workspace", () => {
    const outside = { ...POLICY, readOutsideWorkspace: true };
    for (const [command, wrapper] of [["nice $X", "nice"], ["nice $X ls", "nice"], ["env $X", "env"], ["timeout 5 $X", "timeout"], ["command $X", "command"]] as const) {
      const result = evaluateCommand(command, { ...outside, allowList: [wrapper, "ls"] });
      expect(result.decision, command).toBe("ask");
      expect(result.reason, command).toBe(`\`${wrapper}\` runs a command only known at run time`);
    }
    expect(evaluateCommand("nice", { ...outside, allowList: ["nice"] }).decision, "a bare wrapper runs nothing").toBe("allow");
    expect(evaluateCommand("nice -n 5 ls", { ...outside, allowList: ["nice", "ls"] }).decision).toBe("allow");
  });

  it("follows xargs three deep, and no deeper", () => {
    expect(reasonOf("xargs xargs xargs xargs wc", ["xargs", "wc"])).toMatch(/: nested too deeply$/);
    expect(reasonOf("xargs xargs xargs wc", ["xargs", "wc"])).not.toContain("nested too deeply");
  });
});
