/**
 * The rules reader on real files: each kind of bad input is a warning, never a throw, and an
 * unchanged rules set is served from the stat cache (the cost is printed).
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IgnoreController } from "../ignore/ignore-controller";
import { RulesReader, RULES_LIMIT_BYTES, rulesForPrompt, type RulesInput } from "./rules";
import { nameRoots } from "../util/workspace-roots";

let root: string;
let guard: IgnoreController;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "tandem-rules-"));
});

afterEach(async () => {
  guard?.dispose();
  await rm(root, { recursive: true, force: true });
});

async function input(extra: Partial<RulesInput> = {}): Promise<RulesInput> {
  guard = await IgnoreController.create(root);
  return { roots: nameRoots([{ path: root }]), guard, toggles: {}, customInstructions: "", ...extra };
}

describe("RulesReader", () => {
  it("turns bad inputs into warnings: a folder, a FIFO, a binary, a huge file, a link loop, a link to a folder", async () => {
    await mkdir(join(root, "AGENTS.md"));
    execFileSync("mkfifo", [join(root, ".cursorrules")]);
    await mkdir(join(root, ".clinerules"));
    await writeFile(join(root, ".clinerules", "binary.md"), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    await writeFile(join(root, ".clinerules", "huge.md"), "y".repeat(RULES_LIMIT_BYTES + 1));
    await symlink("loop.md", join(root, ".clinerules", "loop.md"));
    await symlink(root, join(root, ".clinerules", "folder.md"));
    await writeFile(join(root, ".clinerules", "good.md"), "GOOD");
    const rules = await new RulesReader().read(await input());
    expect(rules.sources).toEqual([{ name: ".clinerules/good.md", text: "GOOD" }]);
    const warnings = rules.warnings.join("\n");
    expect(warnings).toContain("AGENTS.md is a folder; a rules file was expected");
    expect(warnings).toContain(".cursorrules is not a regular file");
    expect(warnings).toContain(".clinerules/binary.md is not a text file");
    expect(warnings).toContain(".clinerules/huge.md is 48 KB, over the 48 KB limit");
    expect(warnings).toContain(".clinerules/loop.md could not be read");
    expect(warnings).toContain(".clinerules/folder.md is not a regular file");
  });

  it("reads nothing from files with files: false, but keeps the custom instructions", async () => {
    await writeFile(join(root, "AGENTS.md"), "AGENTS");
    const rules = await new RulesReader().read(await input({ files: false, customInstructions: "  Be brief.  " }));
    expect(rules.sources).toEqual([]);
    expect(rules.customInstructions).toBe("Be brief.");
  });

  it("names each file under its root when there are several", async () => {
    const second = join(root, "second");
    await mkdir(second);
    await writeFile(join(root, "AGENTS.md"), "ONE");
    await writeFile(join(second, "AGENTS.md"), "TWO");
    const rules = await new RulesReader().read(await input({ roots: nameRoots([{ path: root }, { path: second }]) }));
    expect(rulesForPrompt(rules)).toContain(`# second/AGENTS.md\n\nTWO`);
    // The primary folder's are named plainly, as the model writes its paths: a second folder leaves their toggles alone.
    expect(rulesForPrompt(rules)).toContain(`# AGENTS.md\n\nONE`);
  });

  it("serves an unchanged rules set from the stat cache, and sees a change of the same size", async () => {
    await mkdir(join(root, ".clinerules"));
    for (let i = 0; i < 20; i++) await writeFile(join(root, ".clinerules", `r${String(i).padStart(2, "0")}.md`), `rule ${i} `.repeat(100));
    await writeFile(join(root, "AGENTS.md"), "AAAA");
    const reader = new RulesReader();
    const options = await input();
    const cold = performance.now();
    await reader.read(options);
    const coldMs = performance.now() - cold;
    const rounds = 200;
    const warm = performance.now();
    for (let i = 0; i < rounds; i++) await reader.read(options);
    const warmMs = (performance.now() - warm) / rounds;
    console.log(`rules: 21 files, first read ${coldMs.toFixed(2)} ms, unchanged re-read ${warmMs.toFixed(3)} ms each (stats only)`);
    expect(warmMs).toBeLessThan(20);
    await writeFile(join(root, "AGENTS.md"), "BBBB");
    // A coarse clock could leave mtime unchanged; move it on explicitly.
    const later = new Date(Date.now() + 5_000);
    await utimes(join(root, "AGENTS.md"), later, later);
    expect(rulesForPrompt(await reader.read(options))).toContain("BBBB");
  });
});
