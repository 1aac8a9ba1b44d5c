/**
 * A machine without bubblewrap, as the production CLI sees it (PATH without bwrap): the start line
 * says so and how to install it; `auto` falls back to the strict guard (YOLO refuses what it
 * cannot read); `on` refuses every command, saying why. And on this machine, with bubblewrap,
 * the start line says the sandbox is on.
 */
import { readdir, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productionBundles } from "../support/bundles";
import { COMPLETE, ProductionCli, toolCall, toolResults } from "../bundle/production-cli";

let dir: string;
let home: string;
let noBwrap: string;
let cli: ProductionCli;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tandem-no-sandbox-"));
  home = join(dir, "home");
  await mkdir(home);
  // Everything of /usr/bin but bubblewrap.
  noBwrap = join(dir, "bin");
  await mkdir(noBwrap);
  for (const name of await readdir("/usr/bin")) if (name !== "bwrap") await symlink(join("/usr/bin", name), join(noBwrap, name));
  cli = await ProductionCli.start(productionBundles(), home);
}, 120_000);

afterAll(async () => {
  await cli?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function workspace(): Promise<string> {
  const cwd = await mkdtemp(join(dir, "ws-"));
  await writeFile(join(home, "precious.txt"), "keep\n");
  return cwd;
}

const command = (line: string) => [toolCall("execute_command", { command: line }), COMPLETE];

describe("the production CLI where no sandbox exists", () => {
  it("says so at start with what to install, and falls back to the strict guard in YOLO", async () => {
    const cwd = await workspace();
    const run = await cli.run("Clean up", command("$(printf rm) -rf ~"), { cwd, path: noBwrap });
    expect(run.stderr).toMatch(/^Sandbox: not available, so commands run unconfined and the command guard alone judges them\..*bubblewrap.*apt-get install bubblewrap socat \(/m);
    expect(run.code).toBe(0);
    expect(toolResults(run)[0]).toMatch(/refused/);
    expect(existsSync(join(home, "precious.txt"))).toBe(true);
  });

  it("refuses every command with --sandbox on, saying why and what to change", async () => {
    const cwd = await workspace();
    const run = await cli.run("List", command("ls"), { cwd, path: noBwrap, args: ["--sandbox", "on"] });
    expect(run.stderr).toMatch(/^Sandbox: not available, and --sandbox is "on", so commands are refused\./m);
    expect(toolResults(run)[0]).toMatch(/not available on this machine, so no command runs.*"auto" or "off"/s);
  });

  it("says the sandbox is on where bubblewrap works, and then runs what the guard cannot read, confined", async () => {
    const cwd = await workspace();
    const run = await cli.run("Clean up", command("$(printf rm) -rf ~"), { cwd });
    expect(run.stderr).toMatch(/^Sandbox: on \(bubblewrap\)/m);
    expect(toolResults(run)[0]).toMatch(/Read-only file system/);
    expect(existsSync(join(home, "precious.txt"))).toBe(true);
  });

  it("with --sandbox off, where bubblewrap works, says it is off and runs commands unconfined", async () => {
    const cwd = await workspace();
    // The guard lets an interpreter run; only a sandbox could stop this write to HOME.
    const write = `python3 -c "import os; open(os.environ['HOME'] + '/off.txt', 'w').write('x')"`;
    const run = await cli.run("Write", command(write), { cwd, args: ["--sandbox", "off"] });
    expect(run.stderr).toMatch(/^Sandbox: off \(--sandbox is "off"\): commands run unconfined; the command guard alone judges them\./m);
    expect(run.code).toBe(0);
    expect(existsSync(join(home, "off.txt"))).toBe(true);
  });
});
