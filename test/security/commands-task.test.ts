/**
 * The command policy through whole tasks (real Task, real SDK, scripted model, real shell in a
 * throwaway workspace): YOLO without a sandbox refuses what the guard cannot read and says how to
 * write it plainly, commands that change the guard's own files ask even in YOLO, reads outside
 * the workspace ask, and the terminal's shell reaches the policy. Nothing here aims at `/` or the
 * real home: refused commands aim at folders the test made.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_AUTO_APPROVAL } from "../../src/shared/settings";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

let harness: Harness | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function open(options: HarnessOptions): Promise<Harness> {
  harness = await startHarness(options);
  return harness;
}

async function outsideFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "tandem-outside-"));
  await writeFile(join(dir, "keep.txt"), "keep\n");
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` });
const done = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };
const requestText = (h: Harness, n: number) => JSON.stringify(h.server.requests[n]?.body.messages ?? []);
const commandAsks = (h: Harness) => h.asks.filter((a) => a.ask === "command");
const refuseCommands = (ask: { ask: string }) => (ask.ask === "command" ? { type: "no" as const } : { type: "yes" as const });

describe("YOLO mode without a sandbox, through the Task", () => {
  it("refuses a command whose name is only known when it runs, without running it, and tells the model how to write it", async () => {
    const h = await open({ provider: "anthropic", settings: { yolo: true }, answer: approveAll, turns: [command("$(printf rm) -rf victim"), done] });
    await mkdir(join(h.workspace, "victim"));
    expect(await h.run("Clean up")).toBe("completed");
    expect(existsSync(join(h.workspace, "victim"))).toBe(true);
    expect(commandAsks(h)).toHaveLength(0);
    expect(requestText(h, 1)).toMatch(/command guard refused.*only known when it runs.*write the program's name as a plain word/);
  });

  it.each([
    ["a recursive delete outside the workspace", (dir: string) => `rm -rf ${dir}`],
    ["a delete whose target comes from a substitution", (dir: string) => `rm -rf $(echo ${dir})`],
    ["xargs deleting what its input names", (dir: string) => `echo ${dir} | xargs rm -rf`],
    ["find deleting outside the workspace", (dir: string) => `find ${dir} -delete`],
    ["inline Python deleting a computed path", (dir: string) => `python3 -c "import shutil, sys; shutil.rmtree(sys.argv[1])" ${dir}`],
    ["eval of a string only known when it runs", (dir: string) => `x="rm -rf ${dir}"; eval "$x"`],
  ])("refuses %s", async (_name, line) => {
    const dir = await outsideFolder();
    const h = await open({ provider: "openai", settings: { yolo: true }, answer: approveAll, turns: [command(line(dir)), done] });
    expect(await h.run("Clean up")).toBe("completed");
    expect(existsSync(join(dir, "keep.txt"))).toBe(true);
    expect(requestText(h, 1)).toMatch(/command guard refused.*YOLO mode without a sandbox/);
  });

  it("still runs everyday work, reading variables the line assigns", async () => {
    const h = await open({ provider: "anthropic", settings: { yolo: true }, answer: approveAll, turns: [command("D=build; rm -rf $D && echo cleaned"), done] });
    await mkdir(join(h.workspace, "build"));
    expect(await h.run("Clean the build")).toBe("completed");
    expect(existsSync(join(h.workspace, "build"))).toBe(false);
    expect(requestText(h, 1)).toContain("cleaned");
  });
});

describe("the guard's own files, through the Task", () => {
  it.each(["rm .tandemignore", "echo '' > .tandemignore", "mv .tandemignore old", "f=.tandem''ignore; rm $f"])("asks before %j even in YOLO mode, and the file stays when refused", async (line) => {
    const h = await open({ provider: "anthropic", settings: { yolo: true }, answer: refuseCommands, turns: [command(line), done] });
    await writeFile(join(h.workspace, ".tandemignore"), "private/\n");
    expect(await h.run("Tidy up")).toBe("completed");
    expect(commandAsks(h)).toHaveLength(1);
    expect(commandAsks(h)[0]?.tool?.why).toMatch(/\.tandemignore is one of the guard's own files/);
    expect(existsSync(join(h.workspace, ".tandemignore"))).toBe(true);
  });

  it("asks before writing a git hook through a command, and writes it once approved", async () => {
    const h = await open({ provider: "openai", settings: { yolo: true }, answer: approveAll, turns: [command("mkdir -p .git/hooks && echo 'exit 0' > .git/hooks/pre-commit"), done] });
    expect(await h.run("Add a hook")).toBe("completed");
    expect(commandAsks(h)).toHaveLength(1);
    expect(existsSync(join(h.workspace, ".git/hooks/pre-commit"))).toBe(true);
  });
});

describe("reads outside the workspace, through the Task", () => {
  it("asks with safe commands auto-approved, and runs once reading outside is allowed", async () => {
    const dir = await outsideFolder();
    const asked = await open({
      provider: "anthropic",
      settings: { autoApproval: { ...DEFAULT_AUTO_APPROVAL, executeSafeCommands: true } },
      answer: refuseCommands,
      turns: [command(`cat ${dir}/keep.txt`), done],
    });
    expect(await asked.run("Read it")).toBe("completed");
    expect(commandAsks(asked)).toHaveLength(1);
    expect(commandAsks(asked)[0]?.tool?.why).toMatch(/outside the workspace/);
    await asked.dispose();
    harness = undefined;

    const allowed = await open({
      provider: "anthropic",
      settings: { autoApproval: { ...DEFAULT_AUTO_APPROVAL, executeSafeCommands: true, readFilesExternally: true } },
      answer: refuseCommands,
      turns: [command(`cat ${dir}/keep.txt`), done],
    });
    expect(await allowed.run("Read it")).toBe("completed");
    expect(commandAsks(allowed)).toHaveLength(0);
    expect(requestText(allowed, 1)).toContain("keep");
  });
});

describe("the terminal's shell reaches the policy", () => {
  it("asks about a zsh glob qualifier when the shell is zsh, not when it is bash", async () => {
    const saved = process.env.SHELL;
    const settings = { autoApproval: { ...DEFAULT_AUTO_APPROVAL, executeSafeCommands: true } };
    try {
      process.env.SHELL = "/usr/bin/zsh";
      const zsh = await open({ provider: "anthropic", settings, answer: refuseCommands, turns: [command("ls *(e:true:)"), done] });
      expect(await zsh.run("List")).toBe("completed");
      expect(commandAsks(zsh)).toHaveLength(1);
      await zsh.dispose();
      harness = undefined;

      process.env.SHELL = "/bin/bash";
      const bash = await open({ provider: "anthropic", settings, answer: refuseCommands, turns: [command("ls *(e:true:)"), done] });
      expect(await bash.run("List")).toBe("completed");
      expect(commandAsks(bash)).toHaveLength(0);
    } finally {
      if (saved === undefined) delete process.env.SHELL;
      else process.env.SHELL = saved;
    }
  });
});
