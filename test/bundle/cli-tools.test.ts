/**
 * Ship what is tested: the bundles `npm run package` builds (the same esbuild options, minified),
 * and the CLI bundle driven as a separate process through every tool of the registry. A build
 * option that breaks a tool, or a new tool without a scenario here, fails this file.
 */
import { mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAZY_MODULES } from "../../esbuild-options.mjs";
import { TOOLS } from "../../src/core/task/tools/registry";
import { startTestSite, type TestSite } from "../support/web-fetch-test-server";
import { copyOfBundles } from "../support/bundles";
import { COMPLETE, ProductionCli, toolCall, toolResults } from "./production-cli";
import { SCENARIOS, type ScenarioEnv } from "./tool-scenarios";

let env: ScenarioEnv;
let bundle: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "tandem-bundle-"));
  bundle = join(dir, "dist");
  // Its own copy: one test takes the tree-sitter files away.
  await copyOfBundles(bundle);
  const [cli, site]: [ProductionCli, TestSite] = await Promise.all([ProductionCli.start(bundle, dir), startTestSite()]);
  env = { cli, dir, site };
}, 60_000);

afterAll(async () => {
  await env?.cli.stop();
  await env?.site.close();
  if (env) await rm(env.dir, { recursive: true, force: true });
});

describe("the production CLI bundle", () => {
  for (const name of Object.keys(TOOLS)) {
    it(`runs ${name}`, async () => {
      const scenario: ((env: ScenarioEnv) => Promise<void>) | undefined = Object.hasOwn(SCENARIOS, name)
        ? SCENARIOS[name as keyof typeof SCENARIOS]
        : undefined;
      if (!scenario) throw new Error(`${name} has no scenario in test/bundle/tool-scenarios.ts: every tool must run from the shipped bundle`);
      await scenario(env);
    });
  }

  it("loads the core lazily: extension.js loads core.js (host/vscode/core-bundle.ts) instead of holding it", async () => {
    const extension = await readFile(join(bundle, "extension.js"), "utf8");
    expect(extension).toContain('"core.js"');
    expect(extension.length).toBeLessThan((await readFile(join(bundle, "core.js"), "utf8")).length / 10);
  });

  it("keeps the document, web page and shell parser libraries in lazy/, required by the CLI's bundle and core.js only when first used", async () => {
    const lazyFiles = LAZY_MODULES.map((file) => `./lazy/${file.replace(/^.*\//, "").replace(/\.ts$/, "")}.js`);
    for (const file of ["cli-main.js", "core.js"]) {
      const text = await readFile(join(bundle, file), "utf8");
      const imported = [...new Set([...text.matchAll(/require\("(\.\/lazy\/[^"]+)"\)/g)].map((m) => m[1]))].sort();
      expect(imported, file).toEqual([...lazyFiles].sort());
      // pdf.js's, Readability's and the shell parser's own code is not in the bundle people start.
      expect(text, file).not.toContain("isProbablyReaderable");
      expect(text, file).not.toContain("mvdan.cc/sh");
      // 3.6 MB, Gemini's, Bedrock's and Vertex's SDKs included (about 0.5 MB minified, evaluated
      // only at their first request: providers/deferred-handler.ts).
      expect(text.length, file).toBeLessThan(4_000_000);
    }
    for (const lazy of lazyFiles) expect((await readFile(join(bundle, lazy), "utf8")).length, lazy).toBeGreaterThan(100_000);
  });

  it("says which file is missing when the build did not copy the tree-sitter files", async () => {
    const cwd = await mkdtemp(join(env.dir, "ws-"));
    await writeFile(join(cwd, "a.py"), "def f():\n    pass\n");
    await rename(join(bundle, "tree-sitter"), join(bundle, "tree-sitter.away"));
    try {
      const run = await env.cli.run("Outline", [toolCall("list_code_definition_names", { path: "a.py" }), COMPLETE], { cwd });
      expect(toolResults(run)[0]).toMatch(/Cannot find web-tree-sitter\.wasm: it is neither in \S+tree-sitter/);
    } finally {
      await rename(join(bundle, "tree-sitter.away"), join(bundle, "tree-sitter"));
    }
  });
});
