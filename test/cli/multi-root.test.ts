/**
 * A workspace of two folders through the bundled CLI (`--cwd main --root web`): the model reads in
 * both and edits in the second by its name, the first request lists both folders, and a path
 * that could mean two places is answered with how to write either. `..` and links out of every
 * folder: the security corpus's "roots" cases (test/security/corpus/cases-roots.ts).
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../support/script";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const call = (tool: string, params: Record<string, string>) => ({
  text: `<${tool}>\n${Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join("\n")}\n</${tool}>`,
});
const done = call("attempt_completion", { result: "done" });

/** A request's whole text: its system prompt and every message. */
function textOf(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body ?? {});
}

async function twoFolders(): Promise<{ main: string; web: string }> {
  const base = await cli.workspace();
  const main = join(base, "main");
  const web = join(base, "web");
  await mkdir(join(main, "src"), { recursive: true });
  await mkdir(join(web, "src"), { recursive: true });
  await writeFile(join(main, "src", "app.ts"), "export const APP_MARK = 1;\n");
  await writeFile(join(web, "src", "page.ts"), "export const PAGE_MARK = 2;\n");
  return { main, web };
}

describe("tandem --root", { timeout: 90_000 }, () => {
  it("reads in both folders, edits in the second by its name, and lists both in the first request", async () => {
    const { main, web } = await twoFolders();
    const before = (await cli.requests()).length;
    await cli.script([
      call("read_file", { path: "src/app.ts" }),
      call("read_file", { path: "web/src/page.ts" }),
      call("write_to_file", { path: "web/src/page.ts", content: "export const PAGE_MARK = 3;" }),
      done,
    ]);
    const result = await cli.run(["--cwd", main, "--root", web, "--auto-approve", "read,edit", "--sandbox", "off", "Change the page."], { killAfterMs: 60_000 });
    await cli.dropScript();
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(join(web, "src", "page.ts"), "utf8")).toBe("export const PAGE_MARK = 3;\n");
    const requests = (await cli.requests()).slice(before);
    const first = textOf(requests[0]);
    expect(first).toContain(`# Workspace files (main: ${main})`);
    expect(first).toContain(`# Workspace files (web: ${web})`);
    expect(first).toContain("web/src/: page.ts");
    expect(first).toContain(`- web: ${web}`);
    expect(textOf(requests[1])).toContain("APP_MARK");
    expect(textOf(requests[2])).toContain("PAGE_MARK = 2");
    expect(textOf(requests[3])).toContain("saved to web/src/page.ts");
  });

  it("answers a path that names the second folder and an entry of the first with how to write either", async () => {
    const { main, web } = await twoFolders();
    await mkdir(join(main, "web"));
    const before = (await cli.requests()).length;
    await cli.script([call("read_file", { path: "web/src/page.ts" }), done]);
    const result = await cli.run(["--cwd", main, "--root", web, "--sandbox", "off", "Read the page."], { killAfterMs: 60_000 });
    await cli.dropScript();
    expect(result.code, result.stderr).toBe(0);
    const second = textOf((await cli.requests())[before + 1]);
    expect(second).toContain("web/src/page.ts is ambiguous");
    expect(second).toContain("./web/src/page.ts");
  });

  it("runs the second folder's hooks (trusted), reads its rules and workflows, and keeps its secret files' values from the model", async () => {
    const { main, web } = await twoFolders();
    const hook = join(web, ".tandem", "hooks", "TaskStart");
    await mkdir(join(hook, ".."), { recursive: true });
    await writeFile(hook, `#!/bin/sh\ncat > "${join(web, "hook-input.json")}"\necho '{"contextModification":"WEB-HOOK-CONTEXT"}'\n`);
    await chmod(hook, 0o755);
    await writeFile(join(web, "AGENTS.md"), "WEB-RULE: use tabs.\n");
    await mkdir(join(web, ".clinerules", "workflows"), { recursive: true });
    await writeFile(join(web, ".clinerules", "workflows", "ship.md"), "WEB-WORKFLOW: ship it.\n");
    await writeFile(join(web, ".env"), "WEB_API_TOKEN=web-secret-value-9f8e7d6c5b\n");
    await writeFile(join(web, "src", "leak.txt"), "token: web-secret-value-9f8e7d6c5b\n");
    const before = (await cli.requests()).length;
    await cli.script([call("read_file", { path: "web/src/leak.txt" }), done]);
    const result = await cli.run(["--cwd", main, "--root", web, "--trust-workspace", "--sandbox", "off", "/ship now"], { killAfterMs: 60_000 });
    await cli.dropScript();
    expect(result.code, result.stderr).toBe(0);
    const requests = (await cli.requests()).slice(before);
    const first = textOf(requests[0]);
    expect(first).toContain("WEB-HOOK-CONTEXT");
    expect(first).toContain("# web/AGENTS.md");
    expect(first).toContain("WEB-WORKFLOW: ship it.");
    expect(JSON.parse(await readFile(join(web, "hook-input.json"), "utf8")).workspaceRoots).toEqual([main, web]);
    const second = textOf(requests[1]);
    expect(second).toContain("[secret removed: WEB_API_TOKEN in web/.env]");
    expect(JSON.stringify(requests)).not.toContain("web-secret-value-9f8e7d6c5b");
  });

  it("checkpoints cover both folders: the ledger and `checkpoints list` name the second's files by its name, and a restore puts both back", async () => {
    const { main, web } = await twoFolders();
    await writeFile(join(web, "notes.txt"), "web zero\n");
    await cli.script([
      call("write_to_file", { path: "src/app.ts", content: "export const APP_MARK = 11;" }),
      call("write_to_file", { path: "web/notes.txt", content: "web one" }),
      call("execute_command", { command: "echo made > ../web/made.txt", requires_approval: "false" }),
      done,
    ]);
    const task = await cli.run(["--cwd", main, "--root", web, "--yolo", "--sandbox", "off", "Edit both."], { killAfterMs: 60_000 });
    await cli.dropScript();
    expect(task.code, task.stderr).toBe(0);
    expect(task.stdout).toMatch(/Files written:\n {2}- src\/app\.ts\n {2}- web\/notes\.txt/);
    expect(task.stdout).toContain("- web/made.txt");

    const listed = await cli.run(["--cwd", main, "checkpoints", "list"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("1 changed: src/app.ts");
    expect(listed.stdout).toContain("1 changed: web/notes.txt");
    expect(listed.stdout).toContain("1 changed: web/made.txt");

    // From the checkpoint's id alone: no --root needed to put the second folder back.
    const restored = await cli.run(["--cwd", main, "checkpoints", "restore", "0", "--scope", "files"]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(await readFile(join(main, "src", "app.ts"), "utf8")).toBe("export const APP_MARK = 1;\n");
    expect(await readFile(join(web, "notes.txt"), "utf8")).toBe("web zero\n");
    await expect(readFile(join(web, "made.txt"))).rejects.toThrow();
    expect(restored.stdout).toMatch(/Restored 2 files and deleted 1 file/);
  });

  it("refuses a --root that is not a folder, naming the flag", async () => {
    const { main } = await twoFolders();
    const result = await cli.run(["--cwd", main, "--root", join(main, "missing"), "task"]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(`--root ${join(main, "missing")}: no such folder.`);
  });
});
