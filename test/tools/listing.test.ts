/**
 * list_files, search_files and list_code_definition_names inside whole tasks: the real
 * Controller, the real SDKs, the scripted model server, and a real IgnoreController on the
 * task's workspace. Each scenario runs for both providers.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { IgnoreController } from "../../src/core/ignore/ignore-controller";
import { listCodeDefinitionNamesTool } from "../../src/core/task/tools/list-code-definition-names";
import { listFilesTool } from "../../src/core/task/tools/list-files";
import { TOOLS } from "../../src/core/task/tools/registry";
import { searchFilesTool } from "../../src/core/task/tools/search-files";
import type { ToolDefinition } from "../../src/core/task/tools/types";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

const providers = ["anthropic", "openai"] as const;
let harness: Harness | undefined;
let guard: IgnoreController | undefined;

afterEach(async () => {
  guard?.dispose();
  guard = undefined;
  await harness?.dispose();
  harness = undefined;
});

/** The tool, run with the workspace's IgnoreController as its guard (the harness passes none). */
function guarded(tool: ToolDefinition): ToolDefinition {
  return { ...tool, prepare: (params, ctx) => tool.prepare(params, { ...ctx, ignore: guard ?? ctx.ignore }) };
}

const LISTING_TOOLS = {
  ...TOOLS,
  list_files: guarded(listFilesTool),
  search_files: guarded(searchFilesTool),
  list_code_definition_names: guarded(listCodeDefinitionNamesTool),
};

async function open(options: Omit<HarnessOptions, "tools">): Promise<Harness> {
  harness = await startHarness({ ...options, tools: LISTING_TOOLS });
  guard = await IgnoreController.create(harness.workspace);
  const files: Record<string, string> = {
    ".gitignore": "dist/\n",
    ".tandemignore": "private/\n",
    ".env": "TOKEN=TODO\n",
    "dist/bundle.js": "// TODO built\n",
    "private/plan.ts": "// TODO private\n",
    "src/app.ts": "export class App {\n  start(): void {\n    // TODO: wire it up\n  }\n}\n",
    "src/util.py": "def helper():\n    return 1\n",
  };
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(harness.workspace, name)), { recursive: true });
    await writeFile(join(harness.workspace, name), content);
  }
  await guard.reload();
  return harness;
}

function requestText(h: Harness, n: number): string {
  return JSON.stringify(h.server.requests[n]?.body.messages ?? []);
}

const completion = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

describe.each(providers)("listing tools in a task through %s", (provider) => {
  it("lists, searches and outlines the workspace, auto-approved as reads, without ignored files", async () => {
    const h = await open({
      provider,
      answer: approveAll,
      turns: [
        { text: "<list_files>\n<path>.</path>\n<recursive>true</recursive>\n</list_files>", chunkSize: 9 },
        { text: "<search_files>\n<path>.</path>\n<regex>TODO</regex>\n</search_files>" },
        { text: "<list_code_definition_names>\n<path>src</path>\n</list_code_definition_names>" },
        completion,
      ],
    });
    expect(await h.run("Find the TODOs")).toBe("completed");

    const listing = requestText(h, 1);
    expect(listing).toContain(JSON.stringify([".gitignore", ".tandemignore", "src/", "src/app.ts", "src/util.py"].join("\n")).slice(1, -1));
    expect(listing).toContain("[1 entry hidden by .tandemignore.]");
    expect(listing).toContain("[1 file that looks like it holds secrets hidden.]");
    expect(listing).not.toContain("bundle.js");

    const search = requestText(h, 2);
    expect(search).toContain("Found 1 match in 1 file for /TODO/ in ..");
    expect(search).toContain(JSON.stringify("src/app.ts\n2-   start(): void {\n3:     // TODO: wire it up\n4-   }").slice(1, -1));
    expect(search).not.toMatch(/TOKEN|built|private/);

    expect(requestText(h, 3)).toContain(JSON.stringify("src/app.ts\n1 | export class App {\n2 |   start(): void {\n|----\nsrc/util.py\n1 | def helper():").slice(1, -1));

    // Reads inside the workspace are auto-approved by default: shown, not asked.
    expect(h.asks.filter((a) => a.ask === "tool")).toEqual([]);
    const shown = h.messages.filter((m) => m.type === "say" && m.say === "tool").map((m) => m.tool?.tool);
    expect(shown).toEqual(["list_files", "search_files", "list_code_definition_names"]);
  });

  it("answers a tool aimed at an ignored or secret path with an error the model sees, and goes on", async () => {
    const h = await open({
      provider,
      answer: approveAll,
      turns: [
        { text: "<search_files>\n<path>private</path>\n<regex>TODO</regex>\n</search_files>" },
        { text: "<list_code_definition_names>\n<path>.env</path>\n</list_code_definition_names>" },
        completion,
      ],
    });
    expect(await h.run("Look in private")).toBe("completed");
    expect(requestText(h, 1)).toContain("private is ignored by .tandemignore, so tools may not touch it.");
    expect(requestText(h, 2)).toContain(".env looks like a secret file");
    const errors = h.messages.filter((m) => m.type === "say" && m.say === "error").map((m) => m.text);
    expect(errors).toHaveLength(2);
  });

  it("asks before listing outside the workspace, and tells the model when the person says no", async () => {
    const h = await open({
      provider,
      answer: (ask) => (ask.ask === "tool" ? { type: "no", text: "Stay in the project." } : { type: "yes" }),
      turns: [{ text: "<list_files>\n<path>..</path>\n</list_files>" }, completion],
    });
    expect(await h.run("What is next to the project?")).toBe("completed");
    const ask = h.asks.find((a) => a.ask === "tool");
    expect(ask?.tool).toMatchObject({ tool: "list_files", path: "..", outsideWorkspace: true });
    expect(requestText(h, 1)).toContain("Stay in the project.");
  });

  it("runs the tools as native tool calls in one answer", async () => {
    const h = await open({
      provider,
      answer: approveAll,
      settings: { toolCallMode: "native" },
      turns: [
        {
          toolCalls: [
            { id: "call_list", name: "list_files", input: { path: "src" } },
            { id: "call_search", name: "search_files", input: { path: "src", regex: "def \\w+", file_pattern: "*.py" } },
          ],
        },
        { toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "Done." } }] },
      ],
    });
    expect(await h.run("Look around")).toBe("completed");
    const results = (h.apiHistory()[2]?.content as { type: string; toolUseId?: string; content?: unknown }[]).filter((b) => b.type === "tool_result");
    expect(results.map((r) => r.toolUseId)).toEqual(["call_list", "call_search"]);
    expect(results[0]?.content).toBe("src/app.ts\nsrc/util.py");
    expect(results[1]?.content).toBe("Found 1 match in 1 file for /def \\w+/ in src (files matching *.py).\n\nsrc/util.py\n1: def helper():\n2-     return 1");
  });
});
