/**
 * What the person types with "Approve" is for the model: for every tool that asks, the note's text
 * and image reach the model's next request, in XML and native calls alike, through the real Task.
 * The calls come from one table that every asking tool of the registry must be in, so a new tool
 * is covered as soon as it is registered.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "../../src/core/task/tools/registry";
import type { AskMessage, AskResponse } from "../../src/shared/messages";
import { DEFAULT_AUTO_APPROVAL, type AutoApprovalSettings } from "../../src/shared/settings";
import type { ScriptTurn } from "../support/script";
import { startHarness, type Harness } from "../support/task-harness";
import { startTestSite, type TestSite } from "../support/web-fetch-test-server";
import { serverScript, stdio } from "../mcp/support";

const IMAGE = "data:image/png;base64,iVBORw0KTk9URQ==";

/** One call of each asking tool that gets as far as its question (the workspace holds FILES). */
const CALLS: Readonly<Record<string, (site: TestSite) => Record<string, string>>> = {
  read_file: () => ({ path: "src/main.ts" }),
  write_to_file: () => ({ path: "src/new.ts", content: "export const made = true;" }),
  replace_in_file: () => ({ path: "src/main.ts", diff: "------- SEARCH\nexport const main = 1;\n=======\nexport const main = 2;\n+++++++ REPLACE" }),
  list_files: () => ({ path: "src" }),
  search_files: () => ({ path: "src", regex: "main" }),
  list_code_definition_names: () => ({ path: "src/main.ts" }),
  execute_command: () => ({ command: "echo ran" }),
  web_fetch: (site) => ({ url: site.url("/article") }),
  use_mcp_tool: () => ({ server_name: "everything", tool_name: "echo", arguments: '{"message": "hi"}' }),
  access_mcp_resource: () => ({ server_name: "everything", uri: "demo://resource/dynamic/text/1" }),
  use_skill: () => ({ name: "notes" }),
};

/** The MCP tools need a server to ask about. */
const MCP = { servers: { everything: stdio(serverScript("server-everything"), "stdio") } };

const FILES: Readonly<Record<string, string>> = {
  "src/main.ts": "export const main = 1;\nexport function start() {}\n",
  ".tandem/skills/notes/SKILL.md": "---\nname: notes\ndescription: Keeps notes.\n---\nWrite NOTES.md.\n",
};

const asking = Object.values(TOOLS).filter((tool) => tool.approval !== "none");
/** Nothing is approved without asking. */
const ASK_ALL: AutoApprovalSettings = Object.fromEntries(Object.keys(DEFAULT_AUTO_APPROVAL).map((key) => [key, false])) as unknown as AutoApprovalSettings;

let site: TestSite;
let harness: Harness | undefined;
beforeAll(async () => (site = await startTestSite()));
afterAll(() => site.close());
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

/** Approves every tool and command with a note naming it, and accepts the result. */
function approveWithNote(ask: AskMessage): AskResponse {
  if (ask.ask === "tool" || ask.ask === "command") return { type: "yes", text: noteFor(ask.tool?.tool ?? "?"), images: [IMAGE] };
  return { type: "yes" };
}
const noteFor = (tool: string) => `NOTE-${tool}-7f3a`;

function xmlCall(name: string, params: Record<string, string>): ScriptTurn {
  return { text: `<${name}>\n${Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join("\n")}\n</${name}>` };
}
function nativeCall(name: string, params: Record<string, string>): ScriptTurn {
  return { toolCalls: [{ id: `call_${name}`, name, input: params }] };
}

describe("a note typed with Approve", () => {
  it("has a call for every tool that asks", () => {
    expect(asking.map((tool) => tool.name).filter((name) => !Object.hasOwn(CALLS, name))).toEqual([]);
  });

  describe.each([
    ["xml", xmlCall, xmlCall("attempt_completion", { result: "done" })],
    ["native", nativeCall, nativeCall("attempt_completion", { result: "done" })],
  ] as const)("in %s mode", (mode, call, done) => {
    it.each(asking.map((tool) => [tool.name]))("reaches the model after %s", async (name) => {
      const params = CALLS[name]?.(site) ?? {};
      const h = (harness = await startHarness({ provider: "anthropic", settings: { toolCallMode: mode, autoApproval: ASK_ALL }, answer: approveWithNote, turns: [call(name, params), done], ...(name.includes("mcp") ? { mcp: MCP } : {}), skills: { trustWorkspace: () => true } }));
      for (const [file, content] of Object.entries(FILES)) {
        await mkdir(join(h.workspace, file, ".."), { recursive: true });
        await writeFile(join(h.workspace, file), content);
      }
      expect(await h.run("Use the tool")).toBe("completed");
      expect(h.asks.filter((a) => a.ask === "tool" || a.ask === "command")).toHaveLength(1);
      // The tool's result: the last message of the next request.
      const next = JSON.stringify(((h.server.requests[1]?.body.messages ?? []) as unknown[]).at(-1));
      expect(next).toContain(noteFor(name));
      expect(next).toContain(IMAGE.split(",")[1]);
    });
  });
});
