import { describe, expect, it } from "vitest";
import { toolGrammar } from "./tools/registry";
import { unknownToolTags } from "./unknown-tools";

const grammar = toolGrammar(undefined, ["task_progress"]);

describe("unknownToolTags", () => {
  it("finds a call-shaped tag that names no tool, once, in order", () => {
    const text = "I'll open the page.\n<browser_action>\n<action>launch</action>\n<url>http://localhost:3000</url>\n</browser_action>\n<use_subagents>\n</use_subagents>\n<browser_action>\n</browser_action>";
    expect(unknownToolTags(text, grammar)).toEqual(["browser_action", "use_subagents"]);
  });

  it("leaves out real tools, their parameters, the shared ones, prose and unclosed tags", () => {
    const text = [
      "<read_file>\n<path>a</path>\n</read_file>",
      "<requires_approval>false</requires_approval>",
      "<task_progress>\n- [ ] x\n</task_progress>",
      "Use <some_tag> in prose, not at a line start </some_tag>.",
      "<never_closed>",
      "<html>\n</html>",
    ].join("\n");
    expect(unknownToolTags(text, grammar)).toEqual([]);
  });
});
