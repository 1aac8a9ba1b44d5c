/**
 * Links and the guard's own files through what ships: the production CLI bundle, run as its own
 * process in YOLO mode against the scripted model server, in a throwaway HOME and workspace.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productionBundles } from "../support/bundles";
import { COMPLETE, ProductionCli, toolCall, toolResults, type CliRun } from "../bundle/production-cli";

const SECRET = "CLI_LINK_SECRET_0b6e";

let dir: string;
let cli: ProductionCli;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tandem-links-cli-"));
  await mkdir(join(dir, "home"));
  cli = await ProductionCli.start(productionBundles(), join(dir, "home"));
}, 60_000);

afterAll(async () => {
  await cli?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A workspace with a .env, an ignore file, and a link `notes -> .env`. */
async function workspace(): Promise<string> {
  const cwd = await mkdtemp(join(dir, "ws-"));
  await writeFile(join(cwd, ".env"), `TOKEN=${SECRET}\n`);
  await writeFile(join(cwd, ".tandemignore"), "private/\n");
  await symlink(".env", join(cwd, "notes"));
  return cwd;
}

const everything = (run: CliRun) => JSON.stringify(run.requests.map((r) => r.body.messages));

describe("the production CLI with links", () => {
  it("refuses to read or overwrite .env through a link, in YOLO, and tells the model why", async () => {
    const cwd = await workspace();
    const run = await cli.run(
      "Look at the notes",
      [toolCall("read_file", { path: "notes" }), toolCall("write_to_file", { path: "notes", content: "TOKEN=stolen" }), COMPLETE],
      { cwd },
    );
    expect(run.code).toBe(0);
    const [read, write] = toolResults(run);
    expect(read).toContain("notes leads through a symbolic link to .env, which looks like a secret file");
    expect(write).toContain("notes leads through a symbolic link to .env, which looks like a secret file");
    expect(everything(run)).not.toContain(SECRET);
    expect(await readFile(join(cwd, ".env"), "utf8")).toBe(`TOKEN=${SECRET}\n`);
  });

  it("stops at the question before write_to_file replaces .tandemignore, even in YOLO", async () => {
    const cwd = await workspace();
    const run = await cli.run("Unprotect", [toolCall("write_to_file", { path: ".tandemignore", content: "# nothing" }), COMPLETE], { cwd });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("needs approval");
    expect(await readFile(join(cwd, ".tandemignore"), "utf8")).toBe("private/\n");
  });
});
