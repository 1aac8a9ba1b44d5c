/**
 * The rules files and custom instructions in the loop: the real Controller and Task, the real
 * SDKs and the scripted model server, real files in a temp workspace. What reaches each request's
 * system prompt is read from the request the server recorded.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../support/script";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";
import { RULES_LIMIT_BYTES } from "../../src/core/context/rules";

let harness: Harness | undefined;
const outside: string[] = [];

afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  for (const dir of outside.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function open(options: Partial<HarnessOptions> & { files?: Record<string, string> }): Promise<Harness> {
  harness = await startHarness({ provider: "anthropic", answer: approveAll, turns: [DONE], rules: { globalFolder: true }, ...options });
  for (const [name, text] of Object.entries(options.files ?? {})) await put(harness.workspace, name, text);
  return harness;
}

async function put(root: string, name: string, text: string): Promise<void> {
  await mkdir(join(root, name, ".."), { recursive: true });
  await writeFile(join(root, name), text);
}

const DONE = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };
const readNotes = { text: "<read_file>\n<path>notes.txt</path>\n</read_file>" };

/** The system prompt as sent: Anthropic's text blocks, or OpenAI's system message. */
function systemPrompt(request: RecordedRequest | undefined): string {
  const system = request?.body.system as string | { text: string }[] | undefined;
  if (system !== undefined) return typeof system === "string" ? system : system.map((b) => b.text).join("");
  const first = (request?.body.messages as { role: string; content: string }[] | undefined)?.[0];
  return first?.role === "system" ? first.content : "";
}

const infos = (h: Harness) => h.messages.filter((m) => m.type === "say" && m.say === "info").map((m) => m.text ?? "");

describe("rules in the system prompt", () => {
  it.each(["anthropic", "openai"] as const)("every source reaches the prompt under its name, in the documented order (%s)", async (provider) => {
    const h = await open({
      provider,
      files: {
        ".tandemrules": "TANDEM-RULE",
        ".clinerules/b.md": "CLINE-B",
        ".clinerules/a.md": "CLINE-A",
        ".clinerules/skip.json": "NOT-A-RULE",
        ".clinerules/workflows/deploy.md": "WORKFLOW-NOT-A-RULE",
        "AGENTS.md": "AGENTS-RULE",
        ".cursorrules": "CURSOR-RULE",
        ".cursor/rules/x.mdc": "CURSOR-DIR-RULE",
        ".windsurfrules": "WINDSURF-RULE",
      },
    });
    await put(h.storage, "rules/global.md", "GLOBAL-RULE");
    expect(await h.run("go")).toBe("completed");
    const prompt = systemPrompt(h.server.requests[0]);
    const order = ["GLOBAL-RULE", "TANDEM-RULE", "CLINE-A", "CLINE-B", "AGENTS-RULE", "CURSOR-RULE", "CURSOR-DIR-RULE", "WINDSURF-RULE"];
    const positions = order.map((marker) => prompt.indexOf(marker));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const name of ["global/global.md", ".tandemrules", ".clinerules/a.md", ".clinerules/b.md", "AGENTS.md", ".cursorrules", ".cursor/rules/x.mdc", ".windsurfrules"]) {
      expect(prompt).toContain(`# ${name}\n`);
    }
    expect(prompt).not.toContain("NOT-A-RULE");
    expect(prompt).toContain("THE PERSON'S RULES");
    expect(infos(h)).toEqual([]);
  });

  it("the custom instructions setting reaches the prompt, after the rules files", async () => {
    const h = await open({ settings: { customInstructions: "Always answer in haiku." }, files: { "AGENTS.md": "AGENTS-RULE" } });
    expect(await h.run("go")).toBe("completed");
    const prompt = systemPrompt(h.server.requests[0]);
    expect(prompt).toContain("Always answer in haiku.");
    expect(prompt.indexOf("Always answer in haiku.")).toBeGreaterThan(prompt.indexOf("AGENTS-RULE"));
  });

  it("an ignored rules file does not load, and the chat says so once", async () => {
    const h = await open({
      turns: [readNotes, DONE],
      files: { ".tandemignore": ".clinerules/private.md\n", ".clinerules/private.md": "PRIVATE-RULE", ".clinerules/public.md": "PUBLIC-RULE", "notes.txt": "n" },
    });
    expect(await h.run("go")).toBe("completed");
    for (const request of h.server.requests) {
      expect(systemPrompt(request)).not.toContain("PRIVATE-RULE");
      expect(systemPrompt(request)).toContain("PUBLIC-RULE");
    }
    const said = infos(h).filter((t) => t.includes(".clinerules/private.md"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("ignored");
  });

  it("an edit to a rules file between two rounds reaches the second request", async () => {
    const h = await open({
      turns: [{ text: "<write_to_file>\n<path>AGENTS.md</path>\n<content>\nRULE-VERSION-TWO\n</content>\n</write_to_file>" }, DONE],
      files: { "AGENTS.md": "RULE-VERSION-ONE" },
    });
    expect(await h.run("go")).toBe("completed");
    const [first, second] = h.server.requests;
    expect(systemPrompt(first)).toContain("RULE-VERSION-ONE");
    expect(systemPrompt(second)).toContain("RULE-VERSION-TWO");
    expect(systemPrompt(second)).not.toContain("RULE-VERSION-ONE");
  });

  it("a rules file switched off leaves the prompt from the next request", async () => {
    const toggles: Record<string, boolean> = {};
    const h = await open({
      settings: { ruleToggles: toggles },
      turns: [readNotes, DONE],
      files: { ".clinerules/keep.md": "KEEP-RULE", ".clinerules/drop.md": "DROP-RULE", "notes.txt": "n" },
    });
    await h.start("go");
    await h.server.waitForRequests(1, 5_000);
    toggles[".clinerules/drop.md"] = false;
    expect(await h.finished()).toBe("completed");
    const [first, second] = h.server.requests;
    expect(systemPrompt(first)).toContain("DROP-RULE");
    expect(systemPrompt(second)).not.toContain("DROP-RULE");
    expect(systemPrompt(second)).toContain("KEEP-RULE");
    const listed = await h.controller.readRules();
    expect(listed.files).toEqual([
      { name: ".clinerules/drop.md", enabled: false },
      { name: ".clinerules/keep.md", enabled: true },
    ]);
  });

  it("over the size limit, whole files are cut from the end and the warning names them", async () => {
    const big = (marker: string) => `${marker}\n${"x".repeat(20 * 1024)}`;
    const h = await open({
      turns: [readNotes, DONE],
      files: { ".clinerules/1.md": big("FIRST"), ".clinerules/2.md": big("SECOND"), ".clinerules/3.md": big("THIRD"), "AGENTS.md": "SMALL-AGENTS", "notes.txt": "n" },
    });
    expect(await h.run("go")).toBe("completed");
    const prompt = systemPrompt(h.server.requests[0]);
    expect(prompt).toContain("FIRST");
    expect(prompt).toContain("SECOND");
    expect(prompt).not.toContain("THIRD");
    // Cut from the end: a later file goes too, even though it would fit alone.
    expect(prompt).not.toContain("SMALL-AGENTS");
    const said = infos(h).filter((t) => t.includes("limit"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`${RULES_LIMIT_BYTES / 1024} KB`);
    expect(said[0]).toContain(".clinerules/3.md, AGENTS.md");
  });

  it("a rules file linked to a secret outside the workspace does not load", async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), "tandem-outside-"));
    outside.push(elsewhere);
    await writeFile(join(elsewhere, "credentials.md"), "OUTSIDE-SECRET");
    await writeFile(join(elsewhere, "plain.md"), "OUTSIDE-PLAIN");
    const h = await open({ files: { ".clinerules/ok.md": "INSIDE-RULE" } });
    await symlink(join(elsewhere, "credentials.md"), join(h.workspace, "AGENTS.md"));
    await symlink(join(elsewhere, "plain.md"), join(h.workspace, ".clinerules", "linked.md"));
    expect(await h.run("go")).toBe("completed");
    const prompt = systemPrompt(h.server.requests[0]);
    expect(prompt).toContain("INSIDE-RULE");
    expect(prompt).not.toContain("OUTSIDE-SECRET");
    expect(prompt).not.toContain("OUTSIDE-PLAIN");
    const said = infos(h).join("\n");
    expect(said).toContain("AGENTS.md");
    expect(said).toContain(".clinerules/linked.md leads through a link to");
  });

  it("a rules folder that is a link to a folder outside the workspace loads none of its files", async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), "tandem-outside-"));
    outside.push(elsewhere);
    await writeFile(join(elsewhere, "notes.md"), "OUTSIDE-FOLDER-RULE");
    const h = await open({ files: { "AGENTS.md": "INSIDE-RULE" } });
    await symlink(elsewhere, join(h.workspace, ".clinerules"));
    expect(await h.run("go")).toBe("completed");
    const prompt = systemPrompt(h.server.requests[0]);
    expect(prompt).toContain("INSIDE-RULE");
    expect(prompt).not.toContain("OUTSIDE-FOLDER-RULE");
    expect(infos(h).join("\n")).toContain(".clinerules/notes.md leads through a link to");
  });
});
