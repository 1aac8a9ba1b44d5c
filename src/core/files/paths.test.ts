import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/tool-context";
import { assertStillLandsAt, resolveToolPath } from "./paths";
import { ToolError } from "./tool-error";
import { WorkspaceRoots } from "../util/workspace-roots";

let root: string;
let ws: string;
let outside: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir());
  ws = path.join(root, "ws");
  outside = path.join(root, "outside");
  await mkdir(path.join(ws, "src"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), "x");
});
afterEach(() => cleanup());

describe("resolveToolPath", () => {
  it("resolves relative paths against cwd", async () => {
    const r = await resolveToolPath(WorkspaceRoots.single(ws), "src/a.ts");
    const absolute = path.join(ws, "src", "a.ts");
    expect(r).toEqual({ absolute, relative: "src/a.ts", real: absolute, realRelative: "src/a.ts", outsideWorkspace: false });
  });

  it("resolves .. and reports paths that climb out", async () => {
    expect((await resolveToolPath(WorkspaceRoots.single(ws), "src/../b.ts")).relative).toBe("b.ts");
    const out = await resolveToolPath(WorkspaceRoots.single(ws), "../outside/secret.txt");
    expect(out.outsideWorkspace).toBe(true);
    expect(out.relative).toBe("../outside/secret.txt");
    expect(out.absolute).toBe(path.join(outside, "secret.txt"));
  });

  it("accepts absolute paths inside the workspace", async () => {
    const r = await resolveToolPath(WorkspaceRoots.single(ws), path.join(ws, "src", "new", "deep.ts"));
    expect(r.relative).toBe("src/new/deep.ts");
    expect(r.outsideWorkspace).toBe(false);
  });

  it("counts a symlink inside the workspace that points outside as outside", async () => {
    await symlink(outside, path.join(ws, "link"));
    const existing = await resolveToolPath(WorkspaceRoots.single(ws), "link/secret.txt");
    expect(existing.outsideWorkspace).toBe(true);
    expect(existing.relative).toBe("link/secret.txt");
    expect((await resolveToolPath(WorkspaceRoots.single(ws), "link/not-yet/new.txt")).outsideWorkspace).toBe(true);
  });

  it("follows a dangling symlink to where a write would land", async () => {
    await symlink(path.join(outside, "missing.txt"), path.join(ws, "dangling"));
    expect((await resolveToolPath(WorkspaceRoots.single(ws), "dangling")).outsideWorkspace).toBe(true);
  });

  it("treats a workspace reached through a symlink as inside", async () => {
    await symlink(ws, path.join(root, "ws-link"));
    const linkedRoot = path.join(root, "ws-link");
    expect((await resolveToolPath(WorkspaceRoots.single(linkedRoot), "src/a.ts")).outsideWorkspace).toBe(false);
    expect((await resolveToolPath(WorkspaceRoots.single(linkedRoot), path.join(ws, "src/a.ts"))).outsideWorkspace).toBe(false);
  });

  it("does not mistake a sibling with a common prefix for the workspace", async () => {
    await mkdir(path.join(root, "ws2"));
    expect((await resolveToolPath(WorkspaceRoots.single(ws), "../ws2/x")).outsideWorkspace).toBe(true);
  });

  it("gives the real location of a link, of a path through a linked folder and of a link chain", async () => {
    await writeFile(path.join(ws, ".env"), "x");
    await symlink(".env", path.join(ws, "notes"));
    await symlink("notes", path.join(ws, "chain"));
    await symlink("src", path.join(ws, "code"));
    expect(await resolveToolPath(WorkspaceRoots.single(ws), "chain")).toMatchObject({ relative: "chain", real: path.join(ws, ".env"), realRelative: ".env", outsideWorkspace: false });
    expect(await resolveToolPath(WorkspaceRoots.single(ws), "code/new/deep.ts")).toMatchObject({ real: path.join(ws, "src", "new", "deep.ts"), realRelative: "src/new/deep.ts" });
    expect((await resolveToolPath(WorkspaceRoots.single(ws), "../outside/secret.txt")).realRelative).toBe(path.join(outside, "secret.txt"));
  });

  it("resolves .. in a dangling link's target after the links before it, as the disk does", async () => {
    // far -> ../outside (a real folder elsewhere); hop -> far/../ws-twin/x: the disk goes to root/ws-twin/x.
    await symlink(outside, path.join(ws, "far"));
    await symlink("far/../ws-twin/x", path.join(ws, "hop"));
    expect((await resolveToolPath(WorkspaceRoots.single(ws), "hop")).real).toBe(path.join(root, "ws-twin", "x"));
  });

  it("refuses a link loop with a clear error", async () => {
    await symlink("loop-b", path.join(ws, "loop-a"));
    await symlink("loop-a", path.join(ws, "loop-b"));
    await expect(resolveToolPath(WorkspaceRoots.single(ws), "loop-a")).rejects.toThrow(new ToolError("invalid_param", `Too many levels of symbolic links in ${path.join(ws, "loop-a")}.`));
  });

  it("rejects an empty path", async () => {
    await expect(resolveToolPath(WorkspaceRoots.single(ws), "  ")).rejects.toThrowError(ToolError);
    await expect(resolveToolPath(WorkspaceRoots.single(ws), "")).rejects.toMatchObject({ reason: "invalid_param" });
  });
});

describe("assertStillLandsAt", () => {
  it("passes while the path lands where it was checked, and throws once a link redirects it", async () => {
    await writeFile(path.join(ws, "a.txt"), "a");
    await writeFile(path.join(ws, ".env"), "x");
    const target = await resolveToolPath(WorkspaceRoots.single(ws), "a.txt");
    expect(() => assertStillLandsAt(target)).not.toThrow();
    await rm(path.join(ws, "a.txt"));
    await symlink(".env", path.join(ws, "a.txt"));
    expect(() => assertStillLandsAt(target)).toThrow(/now leads somewhere else/);
  });
});
