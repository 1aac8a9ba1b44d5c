/**
 * The path tools in a workspace of two folders: each resolves `name/…` in the named folder and
 * shows what it found as the model writes it, so what it reads back it can write again.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeToolContext, runTool, tempDir } from "../../../../test/support/tool-context";
import { WorkspaceGuard } from "../../ignore/workspace-guard";
import { listCodeDefinitionNamesTool } from "./list-code-definition-names";
import { listFilesTool } from "./list-files";
import { readFileTool } from "./read-file";
import { replaceInFileTool } from "./replace-in-file";
import { searchFilesTool } from "./search-files";
import { ToolError, type ToolDefinition } from "./types";
import { writeToFileTool } from "./write-to-file";

let dir: string;
let main: string;
let web: string;
let guard: WorkspaceGuard;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("tandem-multi-root-"));
  main = path.join(dir, "main");
  web = path.join(dir, "web");
  await mkdir(path.join(main, "src"), { recursive: true });
  await mkdir(path.join(web, "src"), { recursive: true });
  await writeFile(path.join(main, "src", "app.ts"), "export function main() {}\n");
  await writeFile(path.join(web, "src", "page.ts"), "export function page() { return 'PAGE'; }\n");
  await writeFile(path.join(web, ".tandemignore"), "private/\n");
  await mkdir(path.join(web, "private"));
  await writeFile(path.join(web, "private", "keys.txt"), "k");
  guard = await WorkspaceGuard.create([main, web]);
});
afterEach(async () => {
  guard.dispose();
  await cleanup();
});

async function run(tool: ToolDefinition, params: Record<string, string>): Promise<string> {
  const { ctx } = fakeToolContext(main, { extraRoots: [web], ignored: (p) => guard.isIgnored(p), ripgrep: false });
  const result = await runTool(tool, params, ctx);
  if (result.kind !== "ok" || typeof result.content !== "string") throw new Error(`unexpected ${JSON.stringify(result)}`);
  return result.content;
}

describe("the path tools in two workspace folders", () => {
  it("read_file reads in either folder", async () => {
    expect(await run(readFileTool, { path: "src/app.ts" })).toContain("export function main");
    expect(await run(readFileTool, { path: "web/src/page.ts" })).toContain("PAGE");
  });

  it("list_files lists the second folder by its name, and search_files finds in it as the model writes paths", async () => {
    const listing = await run(listFilesTool, { path: "web", recursive: "true" });
    expect(listing.split("\n")).toEqual(expect.arrayContaining(["web/src/", "web/src/page.ts", "web/.tandemignore"]));
    expect(listing).not.toContain("keys.txt");
    expect(await run(searchFilesTool, { path: "web", regex: "PAGE" })).toContain("web/src/page.ts\n1:");
    expect(await run(listCodeDefinitionNamesTool, { path: "web/src/page.ts" })).toContain("web/src/page.ts");
  });

  it("write_to_file and replace_in_file edit in the named folder, and the result names the file as written", async () => {
    expect(await run(writeToFileTool, { path: "web/src/new.ts", content: "export const x = 1;" })).toContain("saved to web/src/new.ts");
    expect(await readFile(path.join(web, "src", "new.ts"), "utf8")).toBe("export const x = 1;\n");
    await run(replaceInFileTool, { path: "web/src/page.ts", diff: "------- SEARCH\nexport function page() { return 'PAGE'; }\n=======\nexport function page() { return 'HOME'; }\n+++++++ REPLACE" });
    expect(await readFile(path.join(web, "src", "page.ts"), "utf8")).toContain("HOME");
    await expect(readFile(path.join(main, "web", "src", "new.ts"))).rejects.toThrow();
  });

  it("refuses what the second folder's own .tandemignore lists", async () => {
    await expect(run(readFileTool, { path: "web/private/keys.txt" })).rejects.toThrowError(ToolError);
  });
});
