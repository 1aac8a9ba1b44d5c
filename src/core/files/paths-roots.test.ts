/** resolveToolPath in a workspace of several folders: names, ambiguity, absolute paths, `..` and links between and out of the folders. */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/tool-context";
import { nameRoots, WorkspaceRoots } from "../util/workspace-roots";
import { locate, resolveToolPath } from "./paths";
import { ToolError } from "./tool-error";

let dir: string;
let main: string;
let web: string;
let api: string;
let outside: string;
let roots: WorkspaceRoots;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("tandem-roots-"));
  main = path.join(dir, "main");
  web = path.join(dir, "web");
  api = path.join(dir, "services", "api");
  outside = path.join(dir, "outside");
  for (const folder of [path.join(main, "src"), path.join(web, "src"), api, outside]) await mkdir(folder, { recursive: true });
  await writeFile(path.join(outside, "secret.txt"), "x");
  roots = WorkspaceRoots.of(nameRoots([{ path: main }, { path: web }, { path: api }]));
});
afterEach(() => cleanup());

describe("resolveToolPath with several workspace folders", () => {
  it("resolves a plain relative path in the primary folder and a named one in its folder, each shown as it was written", async () => {
    expect(await resolveToolPath(roots, "src/a.ts")).toMatchObject({ absolute: path.join(main, "src", "a.ts"), relative: "src/a.ts", outsideWorkspace: false });
    expect(await resolveToolPath(roots, "web/src/a.ts")).toMatchObject({ absolute: path.join(web, "src", "a.ts"), relative: "web/src/a.ts", realRelative: "web/src/a.ts", outsideWorkspace: false });
    expect(await resolveToolPath(roots, "api")).toMatchObject({ absolute: api, relative: "api", outsideWorkspace: false });
  });

  it("takes absolute paths as they are, inside any folder, and shows them by their folder's name", async () => {
    expect(await resolveToolPath(roots, path.join(web, "src", "b.ts"))).toMatchObject({ relative: "web/src/b.ts", outsideWorkspace: false });
    expect(await resolveToolPath(roots, path.join(main, "x.ts"))).toMatchObject({ relative: "x.ts", outsideWorkspace: false });
    expect(await resolveToolPath(roots, path.join(outside, "secret.txt"))).toMatchObject({ outsideWorkspace: true, realRelative: path.join(outside, "secret.txt") });
  });

  it("says a name is ambiguous when the primary folder has an entry of that name too, and how to write either", async () => {
    await mkdir(path.join(main, "web"));
    const error = await resolveToolPath(roots, "web/src/a.ts").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).reason).toBe("invalid_param");
    expect((error as ToolError).message).toContain("web/src/a.ts is ambiguous");
    expect((error as ToolError).message).toContain("./web/src/a.ts");
    expect((error as ToolError).message).toContain(path.join(web, "src", "a.ts"));
    // Both ways it suggests resolve, each to its own place.
    expect((await resolveToolPath(roots, "./web/src/a.ts")).absolute).toBe(path.join(main, "web", "src", "a.ts"));
    expect((await resolveToolPath(roots, path.join(web, "src", "a.ts"))).outsideWorkspace).toBe(false);
  });

  it("is not ambiguous when the primary folder's entry of that name is the folder itself (a link, or the folder lies inside the primary)", async () => {
    await symlink(web, path.join(main, "web"));
    expect((await resolveToolPath(roots, "web/src/a.ts")).absolute).toBe(path.join(web, "src", "a.ts"));
  });

  it("shows a folder nested in the primary by its own name, and both ways of writing it reach the same file", async () => {
    const nested = WorkspaceRoots.of(nameRoots([{ path: path.join(dir, "services") }, { path: api }]));
    const named = await resolveToolPath(nested, "api/handler.ts");
    const viaPrimary = await resolveToolPath(nested, "./api/handler.ts");
    expect(named.absolute).toBe(path.join(api, "handler.ts"));
    expect(viaPrimary.absolute).toBe(named.absolute);
    // The innermost folder names it.
    expect(named.relative).toBe("api/handler.ts");
    expect(nested.shown(path.join(dir, "services", "other.ts"))).toBe("other.ts");
  });

  it("keeps `..` inside only while it lands in a folder: from one folder into another is inside, out of all of them is not", async () => {
    expect(await resolveToolPath(roots, "web/../main/src/a.ts")).toMatchObject({ absolute: path.join(main, "src", "a.ts"), relative: "src/a.ts", outsideWorkspace: false });
    expect((await resolveToolPath(roots, "../web/src/a.ts")).outsideWorkspace).toBe(false);
    expect((await resolveToolPath(roots, "web/../outside/secret.txt")).outsideWorkspace).toBe(true);
    expect((await resolveToolPath(roots, "api/../../outside/secret.txt")).outsideWorkspace).toBe(true);
    expect((await resolveToolPath(roots, "../outside/secret.txt")).outsideWorkspace).toBe(true);
  });

  it("judges links by where they land: into another folder is inside, out of every folder is outside", async () => {
    await symlink(path.join(web, "src"), path.join(main, "web-src"));
    await symlink(outside, path.join(web, "out"));
    await symlink(path.join(outside, "secret.txt"), path.join(api, "secret-link"));
    expect(await resolveToolPath(roots, "web-src/a.ts")).toMatchObject({ relative: "web-src/a.ts", real: path.join(web, "src", "a.ts"), realRelative: "web/src/a.ts", outsideWorkspace: false });
    expect((await resolveToolPath(roots, "web/out/secret.txt")).outsideWorkspace).toBe(true);
    expect((await resolveToolPath(roots, "web/out/new/file.txt")).outsideWorkspace).toBe(true);
    expect(await resolveToolPath(roots, "api/secret-link")).toMatchObject({ relative: "api/secret-link", real: path.join(outside, "secret.txt"), outsideWorkspace: true });
  });

  it("shows a folder the primary shadows by absolute paths, which resolve back without ambiguity", async () => {
    await writeFile(path.join(main, "web"), "a file named like the folder");
    const shown = roots.shown(path.join(web, "src", "a.ts"));
    expect(shown).toBe(path.join(web, "src", "a.ts"));
    expect(locate(roots, shown)).toBe(path.join(web, "src", "a.ts"));
  });
});

describe("nameRoots", () => {
  it("names folders after themselves (or the editor's name), one segment each, a clash taking -2, -3 in order", () => {
    const named = nameRoots([{ path: "/a/app" }, { path: "/b/app" }, { path: "/c/App" }, { path: "/d/x", name: "front/end" }, { path: "/" }, { path: "/e/y", name: "  " }]);
    expect(named.map((r) => r.name)).toEqual(["app", "app-2", "App-3", "front-end", "root", "y"]);
    expect(nameRoots([{ path: "/a/app" }, { path: "/b/app" }])).toEqual(nameRoots([{ path: "/a/app" }, { path: "/b/app" }]));
  });

  it("leaves a single folder's paths exactly as before: a name never takes a plain relative path elsewhere", async () => {
    const single = WorkspaceRoots.single(main);
    expect((await resolveToolPath(single, `${single.primary.name}/x.ts`)).absolute).toBe(path.join(main, single.primary.name, "x.ts"));
  });
});
