/**
 * What the focus chain costs the prompt, printed (`npx vitest run src/core/task/focus-chain-prompt.test.ts`):
 * the system prompt's section in each mode, what task_progress adds to the native specs, and a
 * reminder. Kept small on purpose: the section is paid for on every request.
 */
import { describe, expect, it } from "vitest";
import { focusChainSection, focusChainText, TASK_PROGRESS, withTaskProgressSpec } from "./focus-chain-prompt";
import { toolGrammar, toolSpecs, TOOLS } from "../../task/tools/registry";

const tokens = (chars: number) => Math.round(chars / 4);

describe("the focus chain's prompt cost", () => {
  it("stays small, and every tool takes task_progress in both grammars", () => {
    const xml = focusChainSection("xml").length;
    const native = focusChainSection("native").length;
    const specs = JSON.stringify(toolSpecs(TOOLS)).length;
    const withParam = JSON.stringify(withTaskProgressSpec(toolSpecs(TOOLS))).length;
    const reminder = focusChainText.reminder([{ text: "Find where the setting is read", done: true }, { text: "Add the option", done: false }, { text: "Run the tests", done: false }], 6).length;
    console.log(
      [
        "focus chain prompt cost (chars/4 ≈ tokens):",
        `  system prompt section, XML: ${xml} chars (~${tokens(xml)} tokens); native: ${native} chars (~${tokens(native)} tokens)`,
        `  native specs: +${withParam - specs} chars (~${tokens(withParam - specs)} tokens) for ${Object.keys(TOOLS).length} tools`,
        `  a reminder with 3 items: ${reminder} chars (~${tokens(reminder)} tokens), once every 6 requests without an update`,
      ].join("\n"),
    );
    expect(tokens(xml)).toBeLessThan(300);
    expect(tokens(native)).toBeLessThan(200);
    expect(tokens(withParam - specs)).toBeLessThan(400);
    for (const params of toolGrammar(TOOLS, [TASK_PROGRESS]).values()) expect(params.has("task_progress")).toBe(true);
  });
});
