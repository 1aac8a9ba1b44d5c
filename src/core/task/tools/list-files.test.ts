import { mkdir, symlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IgnoreController } from "../../ignore/ignore-controller";
import { fakeToolContext, runTool, tempDir } from "../../../../test/support/tool-context";
import { LIST_FILES_LIMIT } from "../../files/listing";
import { listFilesTool } from "./list-files";
import { ToolError, type PathGuard, type ToolResult } from "./types";

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir("tandem-list-"));
});
afterEach(() => cleanup());

/** Creates files (content "x") and folders (names ending in "/"). */
async function layout(entries: string[]): Promise<void> {
  for (const entry of entries) {
    const target = path.join(root, entry);
    if (entry.endsWith("/")) await mkdir(target, { recursive: true });
    else {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, "x");
    }
  }
}

async function list(params: Record<string, string>, guard?: PathGuard): Promise<string> {
  const { ctx } = fakeToolContext(root, guard ? { ignored: (p) => guard.isIgnored(p), ignoredBy: (p) => guard.ignoredBy?.(p) } : {});
  return okText(await runTool(listFilesTool, params, ctx));
}

function okText(result: ToolResult): string {
  if (result.kind !== "ok" || typeof result.content !== "string") throw new Error(`unexpected result ${JSON.stringify(result)}`);
  return result.content;
}

async function listError(params: Record<string, string>, guard?: PathGuard): Promise<ToolError> {
  const error = await list(params, guard).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return error;
}

describe("list_files", () => {
  it("lists a folder's direct contents sorted, folders with a slash, hidden files included", async () => {
    await layout(["b.txt", "a.txt", "src/", "src/deep.ts", ".github/workflows/ci.yml", "Zeta.md"]);
    expect(await list({ path: "." })).toBe(["Zeta.md", ".github/", "a.txt", "b.txt", "src/"].sort().join("\n"));
    expect(await list({ path: "src", recursive: "false" })).toBe("src/deep.ts");
  });

  it("lists recursively, honouring the root and nested .gitignore files (with re-includes)", async () => {
    await writeFile(path.join(root, ".gitignore"), "*.log\ndist/\n");
    await layout(["app.ts", "debug.log", "dist/bundle.js", "pkg/.gitignore", "pkg/keep.log", "pkg/tmp/a", "pkg/src/index.ts"]);
    await writeFile(path.join(root, "pkg/.gitignore"), "!keep.log\ntmp/\n");
    expect(await list({ path: ".", recursive: "TRUE" })).toBe(
      [".gitignore", "app.ts", "pkg/", "pkg/.gitignore", "pkg/keep.log", "pkg/src/", "pkg/src/index.ts"].join("\n"),
    );
  });

  it("lets a nested .gitignore re-include a folder that a parent rule excludes, as git does", async () => {
    await writeFile(path.join(root, ".gitignore"), "build/\n");
    await layout(["build/x.js", "pkg/.gitignore", "pkg/build/kept.js", "other/build/gone.js"]);
    await writeFile(path.join(root, "pkg/.gitignore"), "!build/\n");
    expect(await list({ path: ".", recursive: "true" })).toBe(
      [".gitignore", "other/", "pkg/", "pkg/.gitignore", "pkg/build/", "pkg/build/kept.js"].join("\n"),
    );
  });

  it("stops when the task is cancelled", async () => {
    await layout(["a/b.txt"]);
    const controller = new AbortController();
    controller.abort();
    const { ctx } = fakeToolContext(root, { signal: controller.signal });
    await expect(runTool(listFilesTool, { path: ".", recursive: "true" }, ctx)).rejects.toThrow(/abort/i);
  });

  it("shows dependency and VCS folders but does not walk into them, unless asked to list one", async () => {
    await layout(["node_modules/lib/index.js", ".git/HEAD", "target/debug/app", ".venv/bin/python", "src/__pycache__/m.pyc", "src/m.py"]);
    const listing = await list({ path: ".", recursive: "true" });
    expect(listing.split("\n")).toEqual([".git/", ".venv/", "node_modules/", "src/", "src/__pycache__/", "src/m.py", "target/"]);
    expect(await list({ path: "node_modules", recursive: "true" })).toBe("node_modules/lib/\nnode_modules/lib/index.js");
  });

  it("lists a gitignored folder when it is the one asked for", async () => {
    await writeFile(path.join(root, ".gitignore"), "build/\n");
    await layout(["build/out/app.js"]);
    expect(await list({ path: "build", recursive: "true" })).toBe("build/out/\nbuild/out/app.js");
  });

  it("hides what the ignore controller forbids and says how many were hidden", async () => {
    await writeFile(path.join(root, ".tandemignore"), "private/\n*.secret.txt\n");
    await layout(["private/a.txt", "notes.secret.txt", "ok.txt", ".env", ".env.example", "sub/id_rsa"]);
    const controller = new IgnoreController(root);
    await controller.reload();
    const listing = await list({ path: ".", recursive: "true" }, controller);
    expect(listing).toBe(
      [".env.example", ".tandemignore", "ok.txt", "sub/", "", "[2 entries hidden by .tandemignore.]", "[2 files that look like they hold secrets hidden.]"].join("\n"),
    );
  });

  it("refuses to list an ignored folder, naming the ignore file", async () => {
    await writeFile(path.join(root, ".tandemignore"), "private/\n");
    await layout(["private/a.txt"]);
    const controller = new IgnoreController(root);
    await controller.reload();
    const error = await listError({ path: "private" }, controller);
    expect(error.reason).toBe("not_allowed");
    expect(error.message).toBe("private is ignored by .tandemignore, so tools may not touch it.");
  });

  it(`stops at ${LIST_FILES_LIMIT} entries breadth-first, so every top-level entry is still shown`, async () => {
    const files: string[] = ["top-a.txt", "top-b.txt"];
    for (const folder of ["one", "two", "three"]) for (let i = 0; i < 100; i++) files.push(`${folder}/f${String(i).padStart(3, "0")}.txt`);
    await layout(files);
    const listing = await list({ path: ".", recursive: "true" });
    const [body, note] = listing.split("\n\n");
    const lines = (body ?? "").split("\n");
    expect(lines).toHaveLength(LIST_FILES_LIMIT);
    for (const top of ["one/", "two/", "three/", "top-a.txt", "top-b.txt"]) expect(lines).toContain(top);
    expect(note).toMatch(/^\[Only the first 200 entries are shown/);
    expect(await list({ path: "one" })).not.toContain("Only the first");
  });

  it("shows a symlinked folder as a folder without walking through it", async () => {
    await layout(["real/inside.txt"]);
    await symlink(path.join(root, "real"), path.join(root, "link"));
    expect(await list({ path: ".", recursive: "true" })).toBe("link/\nreal/\nreal/inside.txt");
  });

  it("refuses a recursive listing of the file system root or the home folder, but lists them flat", async () => {
    for (const where of ["/", homedir()]) {
      const error = await listError({ path: where, recursive: "true" });
      expect(error.reason).toBe("not_allowed");
      expect(error.message).toMatch(/would walk the whole disk/);
    }
    const { ctx, log } = fakeToolContext(root);
    const flat = okText(await runTool(listFilesTool, { path: "/" }, ctx));
    expect(flat.split("\n")).toContain("/tmp/");
    expect(log.approvals[0]?.message).toMatchObject({ tool: "list_files", outsideWorkspace: true });
  });

  it("asks for read approval with the path, and passes a refusal on", async () => {
    await layout(["a.txt"]);
    const { ctx, log } = fakeToolContext(root, { approvals: [{ approved: false, feedback: { text: "not now" } }] });
    const result = await runTool(listFilesTool, { path: "." }, ctx);
    expect(result).toEqual({ kind: "rejected", feedback: { text: "not now" } });
    expect(log.approvals).toEqual([
      { category: "read", message: { tool: "list_files", path: ".", content: "a.txt", outsideWorkspace: false }, paths: [root] },
    ]);
  });

  it("explains bad input", async () => {
    await layout(["file.txt"]);
    expect((await listError({ path: "missing" })).reason).toBe("not_found");
    expect((await listError({ path: "file.txt" })).message).toMatch(/is a file, not a folder/);
    expect((await listError({ path: ".", recursive: "yes" })).message).toBe('recursive must be "true" or "false"; got "yes".');
    expect(await list({ path: "." , recursive: " " })).toBe("file.txt");
  });

  it("says so when a folder is empty", async () => {
    await layout(["empty/"]);
    expect(await list({ path: "empty" })).toBe("(no files found)");
  });
});
