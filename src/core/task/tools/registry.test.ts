import { describe, expect, it } from "vitest";
import { getTool, isToolName, TOOLS, toolGrammar, toolSpecs } from "./registry";

describe("tool registry", () => {
  it("keys every tool by its own name, with unique params", () => {
    for (const [key, tool] of Object.entries(TOOLS)) {
      expect(tool.name).toBe(key);
      expect(new Set(tool.params.map((p) => p.name)).size).toBe(tool.params.length);
      expect(tool.description.length).toBeGreaterThan(20);
    }
  });

  it("finds known tools and nothing from Object's prototype", () => {
    expect(getTool("read_file")).toBe(TOOLS.read_file);
    expect(getTool("constructor")).toBeUndefined();
    expect(getTool("run_command")).toBeUndefined();
    expect(isToolName("write_to_file")).toBe(true);
    expect(isToolName("toString")).toBe(false);
  });

  it("derives the XML grammar from the definitions", () => {
    const grammar = toolGrammar();
    expect([...grammar.keys()]).toEqual(Object.values(TOOLS).map((tool) => tool.name));
    expect([...grammar.keys()]).toContain("attempt_completion");
    expect([...(grammar.get("read_file") ?? [])]).toEqual(["path", "start_line", "end_line"]);
    expect([...(grammar.get("write_to_file") ?? [])]).toEqual(["path", "content"]);
  });

  it("derives native tool specs with string params and required lists", () => {
    const spec = toolSpecs().find((s) => s.name === "ask_followup_question");
    expect(spec?.inputSchema).toEqual({
      type: "object",
      properties: {
        question: { type: "string", description: TOOLS.ask_followup_question.params[0]?.description },
        options: { type: "string", description: TOOLS.ask_followup_question.params[1]?.description },
      },
      required: ["question"],
      additionalProperties: false,
    });
    expect(toolSpecs({ read_file: TOOLS.read_file }).map((s) => s.name)).toEqual(["read_file"]);
  });
});
