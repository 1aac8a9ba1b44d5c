import { describe, expect, it } from "vitest";
import { TOOLS, type ToolSet } from "./tools/registry";
import { param } from "./tools/params";
import type { ToolDefinition } from "./tools/types";
import { formatResponse } from "../prompts/responses";
import { buildSystemPrompt } from "./system-prompt";
import { toolsForMode } from "../participants/mode/mode";
import { modeSection } from "../prompts/mode-texts";

const env = { cwd: "/home/dev/project", os: "Linux 6.8", shell: "/bin/bash" };
const estimatedTokens = (text: string) => Math.ceil(text.length / 4);

const extraTool: ToolDefinition = {
  name: "replace_in_file",
  description: "Edit part of a file.",
  params: [param.path("path", "The file.", { required: true }), param.text("diff", "SEARCH/REPLACE blocks.", { required: true })],
  readOnly: false,
  approval: "edit",
  prepare: () => Promise.resolve({ approval: { message: { tool: "replace_in_file" } }, run: () => Promise.resolve({ kind: "ok", content: "" }) }),
};

describe("buildSystemPrompt", () => {
  const xml = buildSystemPrompt({ ...env, tools: TOOLS, toolCallMode: "xml" });
  const native = buildSystemPrompt({ ...env, tools: TOOLS, toolCallMode: "native" });

  it("stays lean in both modes", () => {
    console.log(`system prompt: xml ≈ ${estimatedTokens(xml)} tokens, native ≈ ${estimatedTokens(native)} tokens (chars/4)`);
    expect(estimatedTokens(xml)).toBeLessThan(4000);
    expect(estimatedTokens(native)).toBeLessThan(estimatedTokens(xml));
  });

  it("names the other workspace folders and how to write their paths only when there are several", () => {
    const several = buildSystemPrompt({ ...env, otherRoots: [{ name: "web", path: "/home/dev/web" }], sandbox: { network: "no host" }, tools: TOOLS, toolCallMode: "xml" });
    const one = buildSystemPrompt({ ...env, sandbox: { network: "no host" }, tools: TOOLS, toolCallMode: "xml" });
    console.log(`a second workspace folder adds ≈ ${estimatedTokens(several) - estimatedTokens(one)} tokens to the system prompt (chars/4)`);
    expect(several).toContain("Working directory: /home/dev/project\nOther workspace folders: write a path in one as its name followed by the path inside it (web/src/a.ts), or as an absolute path:\n- web: /home/dev/web");
    expect(several).toContain("they may write only in the workspace folders and $TMPDIR");
    expect(xml).not.toContain("Other workspace folders");
    expect(one).toContain("they may write only in the working directory and $TMPDIR");
  });

  it("has a mode section and each mode's own tools; Plan's prompt is the smaller", () => {
    const plan = buildSystemPrompt({ ...env, tools: toolsForMode(TOOLS, "plan"), toolCallMode: "xml", sections: [modeSection("plan")] });
    const act = buildSystemPrompt({ ...env, tools: toolsForMode(TOOLS, "act"), toolCallMode: "xml", sections: [modeSection("act")] });
    console.log(`system prompt (xml, MCP tools included): act ≈ ${estimatedTokens(act)} tokens, plan ≈ ${estimatedTokens(plan)} tokens (chars/4)`);
    expect(plan).toContain("MODE: PLAN");
    expect(act).toContain("MODE: ACT");
    expect(plan).not.toContain("## write_to_file");
    expect(act).not.toContain("## plan_mode_respond");
    expect(estimatedTokens(plan)).toBeLessThan(estimatedTokens(act));
  });

  it("describes every tool, param and example from the registry in xml mode", () => {
    expect(xml).toContain("You are Tandem");
    expect(xml).toContain("<tool_name>");
    for (const tool of Object.values(TOOLS)) {
      expect(xml).toContain(`## ${tool.name}\n${tool.description}`);
      for (const p of tool.params) {
        expect(xml).toContain(`- ${p.name} (${p.required ? "required" : "optional"}): ${p.description}`);
      }
      expect(xml).toContain(tool.example);
    }
  });

  it("lists only tool names in native mode, without the XML format", () => {
    expect(native).toContain(`Available tools: ${Object.keys(TOOLS).join(", ")}.`);
    expect(native).not.toContain("<tool_name>");
    expect(native).not.toContain(TOOLS.read_file.description);
  });

  it("follows the tool set it is given", () => {
    const { replace_in_file: _omitted, ...withoutEditing } = TOOLS;
    const base = buildSystemPrompt({ ...env, tools: withoutEditing, toolCallMode: "xml" });
    const tools: ToolSet = { ...withoutEditing, replace_in_file: extraTool };
    const prompt = buildSystemPrompt({ ...env, tools, toolCallMode: "xml" });
    expect(prompt).toContain("## replace_in_file\nEdit part of a file.");
    expect(prompt).toContain("<replace_in_file>\n<path>path here</path>\n<diff>diff here</diff>\n</replace_in_file>");
    expect(prompt).toContain("Prefer replace_in_file");
    expect(base).not.toContain("replace_in_file");
  });

  it("states the rules and the environment", () => {
    for (const prompt of [xml, native]) {
      expect(prompt).toContain("Give every path relative to the working directory. It never changes");
      expect(prompt.split("/home/dev/project")).toHaveLength(2);
      expect(prompt).toContain("attempt_completion");
      expect(prompt).toContain("ask_followup_question");
      expect(prompt).toMatch(/Operating system: Linux 6\.8\nDefault shell: \/bin\/bash\nWorking directory: \/home\/dev\/project\n/);
      expect(prompt).toMatch(/<environment_details> block that Tandem adds, not the person[^\n]*It is context to use where it helps, not a request\.$/);
    }
  });

  it("appends the participants' sections in order, and leaves out empty ones", () => {
    const custom = buildSystemPrompt({ ...env, tools: TOOLS, toolCallMode: "xml", sections: ["FIRST\n\nOne.", "SECOND\n\nAnswer in French."] });
    expect(custom.endsWith("Answer in French.")).toBe(true);
    expect(custom.indexOf("FIRST")).toBeLessThan(custom.indexOf("SECOND"));
    expect(custom.startsWith(xml)).toBe(true);
    expect(buildSystemPrompt({ ...env, tools: TOOLS, toolCallMode: "xml", sections: ["  "] })).toBe(xml);
  });
});

describe("formatResponse", () => {
  it("recaps the call format that matches the mode", () => {
    expect(formatResponse.noToolsUsed()).toContain("<tool_name>");
    expect(formatResponse.noToolsUsed()).toContain("attempt_completion");
    expect(formatResponse.noToolsUsed("native")).not.toContain("<tool_name>");
  });

  it("carries the person's words and the model's mistakes", () => {
    expect(formatResponse.toolDeniedWithFeedback("use tabs")).toContain("<feedback>\nuse tabs\n</feedback>");
    expect(formatResponse.missingParam("read_file", "path")).toContain("'path' of read_file");
    expect(formatResponse.tooManyMistakes("try X")).toContain("try X");
    expect(formatResponse.tooManyMistakes()).not.toContain("<feedback>");
    expect(formatResponse.unknownTool("run", ["read_file"])).toBe("There is no tool named 'run'. Available tools: read_file.");
    expect(formatResponse.interruptedByUser()).toBe("[Response interrupted by user]");
    expect(formatResponse.toolSkippedAfterRejection("write_to_file")).toMatch(/^write_to_file was not run/);
    expect(formatResponse.invalidToolArguments("read_file", "Unexpected token")).toContain("(Unexpected token)");
    expect(formatResponse.responseCutShort("socket hang up")).toContain("socket hang up");
  });

  it("turns image data URLs into image blocks and refuses anything else", () => {
    expect(formatResponse.toolResult("t")).toBe("t");
    expect(formatResponse.toolResult("t", ["data:image/jpeg;base64,/9j/"])).toEqual([
      { type: "text", text: "t" },
      { type: "image", mediaType: "image/jpeg", data: "/9j/" },
    ]);
    expect(() => formatResponse.toolResult("t", ["https://example.com/a.png"])).toThrow(/data URL/);
  });
});

describe("the system prompt and the sandbox", () => {
  it("tells the model commands are sandboxed, and where to put temporary files, only when they are", () => {
    const base = { cwd: "/ws", os: "Linux", shell: "/bin/bash", tools: TOOLS, toolCallMode: "xml" as const };
    expect(buildSystemPrompt(base)).not.toMatch(/Commands run inside an OS sandbox/);
    const sandboxed = buildSystemPrompt({ ...base, sandbox: { network: "only package registries" } });
    expect(sandboxed).toMatch(/Commands run inside an OS sandbox/);
    expect(sandboxed).toMatch(/\$TMPDIR/);
    expect(sandboxed).toMatch(/only package registries/);
  });
});
