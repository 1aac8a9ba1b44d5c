/**
 * A folder mention on a real temp folder with the real ignore controller: the listing, then the
 * small text files' contents; the per-file, total and count budgets, each named in the note;
 * binary files and documents named, not read; ignored and secret files (and links to them)
 * never read nor named; a link out of the workspace refused; VCS data not even listed.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IgnoreController } from "../ignore/ignore-controller";
import { pathMentionBlock } from "./mention-files";
import { FOLDER_FILE_MAX_BYTES, FOLDER_MAX_FILES, FOLDER_TOTAL_MAX_BYTES } from "./mention-folder";
import { WorkspaceRoots } from "../util/workspace-roots";

let root: string;
let outside: string;
let guard: IgnoreController;

async function put(name: string, text: string | Buffer): Promise<void> {
  await mkdir(join(root, name, ".."), { recursive: true });
  await writeFile(join(root, name), text);
}

async function folderBlock(relative: string, signal = new AbortController().signal): Promise<string> {
  guard ??= await IgnoreController.create(root);
  return pathMentionBlock(relative, { roots: WorkspaceRoots.single(root), guard, signal });
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "tandem-folder-mention-"));
  outside = await mkdtemp(join(tmpdir(), "tandem-folder-outside-"));
  guard = undefined as unknown as IgnoreController;
});

afterEach(async () => {
  guard?.dispose();
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe("a folder mention", () => {
  it("lists the folder, then brings each small text file as a file mention shows it; sub-folders are listed, not read", async () => {
    await put("src/a.ts", "export const a = 1;\n");
    await put("src/b.md", "# B\n");
    await put("src/deep/c.ts", "DEEP");
    const block = await folderBlock("src/");
    expect(block).toBe(
      [
        '<folder_content path="src/">',
        "src/a.ts\nsrc/b.md\nsrc/deep/",
        "",
        '<file_content path="src/a.ts">\n1|export const a = 1;\n</file_content>',
        "",
        '<file_content path="src/b.md">\n1|# B\n</file_content>',
        "",
        "[Sub-folders are listed, not read: mention one to read its files.]",
        "</folder_content>",
      ].join("\n"),
    );
    expect(block).not.toContain("DEEP");
  });

  it("never reads nor names an ignored file, a secret file or a link to one; refuses a link out of the workspace", async () => {
    await put(".tandemignore", "src/private.md\n");
    await put("src/ok.ts", "OK-MARKER");
    await put("src/private.md", "IGNORED-MARKER");
    await put("src/.env", "TOKEN=SECRET-MARKER");
    await put("src/id_rsa", "KEY-MARKER");
    await symlink(join(root, "src", ".env"), join(root, "src", "harmless.txt"));
    await writeFile(join(outside, "far.txt"), "OUTSIDE-MARKER");
    await symlink(join(outside, "far.txt"), join(root, "src", "far.txt"));
    const block = await folderBlock("src/");
    expect(block).toContain("OK-MARKER");
    for (const marker of ["IGNORED-MARKER", "SECRET-MARKER", "KEY-MARKER", "OUTSIDE-MARKER"]) expect(block).not.toContain(marker);
    for (const name of ["private.md", ".env", "id_rsa", "harmless.txt"]) expect(block).not.toContain(name);
    expect(block).toContain("- links out of the workspace: src/far.txt");
    expect(block).toMatch(/hidden by \.tandemignore/);
    expect(block).toMatch(/look like they hold secrets hidden/);
  });

  it("leaves out a file over the per-file size, naming it with its size", async () => {
    await put("logs/small.txt", "small");
    await put("logs/big.log", "x".repeat(FOLDER_FILE_MAX_BYTES + 1));
    const block = await folderBlock("logs/");
    expect(block).toContain('<file_content path="logs/small.txt">');
    expect(block).not.toContain('<file_content path="logs/big.log">');
    expect(block).toContain(`- larger than ${FOLDER_FILE_MAX_BYTES / 1024} KB: logs/big.log (${FOLDER_FILE_MAX_BYTES / 1024 + 1} KB)`);
    expect(block).toContain("mention a file on its own to read it");
  });

  it("stops at the total budget, reading files in name order, and names the rest", async () => {
    const size = FOLDER_FILE_MAX_BYTES - 1024;
    const fit = Math.floor(FOLDER_TOTAL_MAX_BYTES / size);
    for (let i = 0; i <= fit; i++) await put(`data/f${i}.txt`, `${i}`.repeat(size));
    const block = await folderBlock("data/");
    const read = [...block.matchAll(/<file_content path="([^"]+)">/g)].map((m) => m[1]);
    expect(read).toEqual(Array.from({ length: fit }, (_, i) => `data/f${i}.txt`));
    expect(block).toContain(`- past the ${FOLDER_TOTAL_MAX_BYTES / 1024} KB a folder mention reads: data/f${fit}.txt (${size / 1024} KB)`);
    expect(Buffer.byteLength(block)).toBeLessThan(FOLDER_TOTAL_MAX_BYTES * 1.2);
  });

  it("reads at most FOLDER_MAX_FILES files", async () => {
    for (let i = 0; i < FOLDER_MAX_FILES + 3; i++) await put(`many/n${String(i).padStart(2, "0")}.txt`, "tiny");
    const block = await folderBlock("many/");
    expect([...block.matchAll(/<file_content /g)]).toHaveLength(FOLDER_MAX_FILES);
    expect(block).toContain(`- past the ${FOLDER_MAX_FILES} files a folder mention reads: many/n30.txt, many/n31.txt, many/n32.txt`);
  });

  it("names binary files and documents instead of reading them", async () => {
    await put("assets/logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    await put("assets/spec.pdf", "%PDF-1.4 not really");
    await put("assets/notes.txt", "NOTES");
    const block = await folderBlock("assets/");
    expect(block).toContain("NOTES");
    expect(block).toContain("- binary files: assets/logo.png");
    expect(block).toContain("- documents (PDF, Word, notebooks): assets/spec.pdf");
  });

  it("does not list VCS data; the workspace root (@/) reads its own small files", async () => {
    await put(".git/HEAD", "ref: refs/heads/main\n");
    await put("README.md", "ROOT-README");
    const block = await folderBlock(".");
    expect(block).toContain("ROOT-README");
    expect(block).not.toMatch(/\.git\/|HEAD/);
  });

  it("stops when the task is cancelled", async () => {
    await put("src/a.ts", "a");
    const controller = new AbortController();
    controller.abort();
    await expect(folderBlock("src/", controller.signal)).rejects.toThrow();
  });
});
