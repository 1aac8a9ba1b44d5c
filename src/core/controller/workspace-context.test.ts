import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/tool-context";
import type { WorkspaceRoot } from "../../host/bridge";
import { DEFAULT_AGENT_SETTINGS } from "../../shared/settings";
import { nameRoots } from "../util/workspace-roots";
import { WorkspaceContext } from "./workspace-context";

let dir: string;
let main: string;
let web: string;
let roots: WorkspaceRoot[];
let context: WorkspaceContext;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("tandem-workspace-context-"));
  main = path.join(dir, "main");
  web = path.join(dir, "web");
  await mkdir(path.join(main, ".clinerules", "workflows"), { recursive: true });
  await mkdir(path.join(web, ".tandem", "workflows"), { recursive: true });
  await writeFile(path.join(main, ".clinerules", "workflows", "release.md"), "Release it.");
  await writeFile(path.join(web, ".tandem", "workflows", "deploy.md"), "Deploy the site.");
  await writeFile(path.join(web, "AGENTS.md"), "Use tabs in web.");
  await writeFile(path.join(web, ".tandemignore"), "drafts/\n");
  roots = nameRoots([{ path: main }]);
  context = new WorkspaceContext({ roots: () => roots, settings: () => DEFAULT_AGENT_SETTINGS });
});
afterEach(async () => {
  await context.dispose();
  await cleanup();
});

describe("WorkspaceContext with several folders", () => {
  it("reads each folder's workflows, rules and ignore file, and takes a new set of folders for the next task", async () => {
    const alone = await context.guard();
    expect(alone.isIgnored(path.join(web, "drafts", "x.md"))).toBe(false);
    expect((await context.slashCommands(alone, undefined).list()).map((c) => c.name)).toContain("release");
    expect((await context.slashCommands(alone, undefined).list()).map((c) => c.name)).not.toContain("deploy");

    roots = nameRoots([{ path: main }, { path: web }]);
    const both = await context.guard();
    expect(both).not.toBe(alone);
    expect(both.isIgnored(path.join(web, "drafts", "x.md"))).toBe(true);
    expect((await context.slashCommands(both, undefined).list()).map((c) => c.name)).toEqual(expect.arrayContaining(["release", "deploy"]));
    expect((await context.readRules(both)).sources).toEqual([{ name: "web/AGENTS.md", text: "Use tabs in web." }]);
    expect(await context.guard()).toBe(both);
  });
});
