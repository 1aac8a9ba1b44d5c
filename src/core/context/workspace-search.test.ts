/**
 * The @-menu's workspace search on a real temp folder with the real ignore controller: fuzzy
 * matches, .gitignore, .tandemignore and secret files left out, bounded results, and an index
 * that typing does not rebuild.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IgnoreController } from "../ignore/ignore-controller";
import { fuzzyScore, MAX_RESULTS, WorkspaceSearch } from "./workspace-search";
import { nameRoots, WorkspaceRoots } from "../util/workspace-roots";

let root: string;
let guard: IgnoreController;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "tandem-search-"));
  const files = {
    "src/app.ts": "",
    "src/app.test.ts": "",
    "src/utils/strings.ts": "",
    "docs/readme.md": "",
    "build/out.js": "",
    "private/plan.md": "",
    ".env": "SECRET=1",
    ".gitignore": "build/\n",
    ".tandemignore": "private/\n",
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(root, name, ".."), { recursive: true });
    await writeFile(join(root, name), text);
  }
  await symlink(join(root, ".env"), join(root, "harmless.txt"));
  guard = await IgnoreController.create(root);
});

afterEach(async () => {
  guard.dispose();
  await rm(root, { recursive: true, force: true });
});

async function put(name: string, text: string): Promise<void> {
  await mkdir(join(root, name, ".."), { recursive: true });
  await writeFile(join(root, name), text);
}

const paths = async (search: WorkspaceSearch, query: string) => (await search.search(query)).map((e) => `${e.path}${e.isFolder ? "/" : ""}`);

describe("WorkspaceSearch", () => {
  it("matches fuzzily, files and folders, the name's start first", async () => {
    const search = new WorkspaceSearch({ roots: () => WorkspaceRoots.single(root), guard: async () => guard });
    expect((await paths(search, "sr"))[0]).toBe("src/");
    expect(await paths(search, "app")).toEqual(["src/app.ts", "src/app.test.ts"]);
    expect((await paths(search, "sutstr"))[0]).toBe("src/utils/strings.ts");
    expect(await paths(search, "zzz")).toEqual([]);
  });

  it("leaves out what .gitignore, .tandemignore and the secret-file rule hide, links to secrets too", async () => {
    const search = new WorkspaceSearch({ roots: () => WorkspaceRoots.single(root), guard: async () => guard });
    const all = await paths(search, "");
    expect(all).toEqual(expect.arrayContaining(["src/", "docs/", "docs/readme.md", "src/app.ts"]));
    for (const hidden of ["build/", "build/out.js", "private/", "private/plan.md", ".env", "harmless.txt"]) expect(all).not.toContain(hidden);
    // The shallowest first, for an empty query.
    expect(all.indexOf("src/")).toBeLessThan(all.indexOf("src/utils/strings.ts"));
  });

  it("offers nothing of version control's own data (.git/, a submodule's .git file, .hg/), while .gitignore and node_modules/ stay", async () => {
    await put(".git/HEAD", "ref: refs/heads/main\n");
    await put(".git/objects/ab/cdef", "");
    await put("vendor/lib/.git", "gitdir: ../../.git/modules/lib\n");
    await put("vendor/lib/index.ts", "");
    await put(".hg/store/data", "");
    await put("node_modules/left-pad/index.js", "");
    const search = new WorkspaceSearch({ roots: () => WorkspaceRoots.single(root), guard: async () => guard });
    const all = await paths(search, "");
    expect(all).toEqual(expect.arrayContaining([".gitignore", "node_modules/", "vendor/lib/index.ts"]));
    expect(all.filter((p) => /(^|\/)\.(git|hg)(\/|$)/.test(p))).toEqual([]);
    expect(await paths(search, ".git")).not.toContain(".git/");
    expect(await paths(search, "HEAD")).toEqual([]);
  });

  it("answers at most MAX_RESULTS entries", async () => {
    for (let i = 0; i < MAX_RESULTS + 30; i++) await writeFile(join(root, "docs", `page-${i}.md`), "");
    const search = new WorkspaceSearch({ roots: () => WorkspaceRoots.single(root), guard: async () => guard });
    expect(await search.search("page")).toHaveLength(MAX_RESULTS);
  });

  it("walks the workspace once while typing, again in the background once stale, and at once for a new guard", async () => {
    let now = 0;
    let current = guard;
    const search = new WorkspaceSearch({ roots: () => WorkspaceRoots.single(root), guard: async () => current, now: () => now, staleMs: 1000 });
    for (const query of ["s", "sr", "src", "src/a", "src/ap"]) await search.search(query);
    expect(search.walks).toBe(1);
    await writeFile(join(root, "src", "fresh.ts"), "");
    now = 5000;
    // Stale: this answer comes from the old index, the next from a new walk.
    expect(await paths(search, "fresh")).toEqual([]);
    expect(search.walks).toBe(2);
    await expect.poll(() => paths(search, "fresh")).toEqual(["src/fresh.ts"]);
    expect(await paths(search, ".env")).not.toContain(".env");
    current = await IgnoreController.create(root, { allowSecretFiles: true });
    try {
      expect(await paths(search, ".env")).toContain(".env");
      expect(search.walks).toBe(3);
    } finally {
      current.dispose();
    }
  });

  // Making 5,000 files is most of this test: beside the e2e suite on two cores it once took over 20 s.
  it("types a query of 12 keystrokes over 5,000 files with one walk (prints what each costs)", { timeout: 90_000 }, async () => {
    for (let d = 0; d < 50; d++) {
      await mkdir(join(root, "pkg", `mod-${d}`), { recursive: true });
      await Promise.all(Array.from({ length: 100 }, (_, f) => writeFile(join(root, "pkg", `mod-${d}`, `file-${f}.ts`), "")));
    }
    const search = new WorkspaceSearch({ roots: () => WorkspaceRoots.single(root), guard: async () => guard });
    let started = performance.now();
    await search.search("");
    const buildMs = performance.now() - started;
    started = performance.now();
    const typed = "pkg/mod-42/f";
    for (let i = 1; i <= typed.length; i++) await search.search(typed.slice(0, i));
    const perKeystrokeMs = (performance.now() - started) / typed.length;
    expect(search.walks).toBe(1);
    expect((await search.search("mod42file7"))[0]?.path).toBe("pkg/mod-42/file-7.ts");
    console.log(`workspace search: index of 5,000+ files built in ${buildMs.toFixed(0)} ms; a keystroke's search ${perKeystrokeMs.toFixed(1)} ms; walks while typing: ${search.walks}`);
  });

  it("scores consecutive and segment-start matches above scattered ones", () => {
    const entry = (key: string) => ({ key, nameStart: key.lastIndexOf("/") + 1 });
    expect(fuzzyScore(entry("src/app.ts"), "app")!).toBeGreaterThan(fuzzyScore(entry("a/p/p.ts"), "app")!);
    expect(fuzzyScore(entry("src/app.ts"), "xyz")).toBeUndefined();
  });

  it("offers every workspace folder, the second one itself and its files by its name, and walks again when the folders change", async () => {
    const web = await mkdtemp(join(tmpdir(), "tandem-search-web-"));
    try {
      await mkdir(join(web, "pages"));
      await writeFile(join(web, "pages", "home.tsx"), "");
      let roots = WorkspaceRoots.single(root);
      const search = new WorkspaceSearch({ roots: () => roots, guard: async () => guard });
      expect(await paths(search, "home")).toEqual([]);
      roots = WorkspaceRoots.of(nameRoots([{ path: root }, { path: web, name: "web" }]));
      expect(await paths(search, "home")).toEqual(["web/pages/home.tsx"]);
      expect(await paths(search, "web")).toContain("web/");
      expect(search.walks).toBe(2);
    } finally {
      await rm(web, { recursive: true, force: true });
    }
  });
});
