import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../shared/messages";
import type { HistoryItem } from "../../shared/protocol";
import { sumUsage } from "../../shared/usage";
import { exportFileName, taskMarkdown } from "./task-markdown";

const chat: ChatMessage[] = [
  { ts: Date.UTC(2026, 0, 2, 9, 30), type: "say", say: "task", text: "Fix the parser\nIt drops the last token." },
  { ts: 2, type: "say", say: "api_req_started", apiRequest: { tokensIn: 1_200, tokensOut: 80, cacheWrites: 3_000, cacheReads: 0, cost: 0.0123, outcome: "completed" } },
  { ts: 3, type: "say", say: "reasoning", text: "Look at the tokenizer first." },
  { ts: 4, type: "say", say: "text", text: "I'll read the tokenizer." },
  { ts: 5, type: "say", say: "tool", tool: { tool: "read_file", path: "src/tokenizer.ts", content: "/w/app/src/tokenizer.ts" } },
  { ts: 6, type: "ask", ask: "tool", outcome: "yes", tool: { tool: "replace_in_file", path: "src/tokenizer.ts", content: "------- SEARCH\n  i < n - 1\n=======\n  i < n\n+++++++ REPLACE" } },
  { ts: 7, type: "ask", ask: "command", text: "npm test", outcome: "yes" },
  { ts: 8, type: "say", say: "command_output", text: "```\n3 passing\n", command: { confinement: { kind: "outside" }, end: { kind: "exited", code: 0 } } },
  { ts: 9, type: "say", say: "tool", tool: { tool: "use_mcp_tool", mcp: { server: "weather", tool: "forecast", result: { parts: [{ type: "text", text: "Sunny" }] } }, content: '{\n  "city": "Oslo"\n}' } },
  { ts: 10, type: "say", say: "user_feedback", text: "Also add a test." },
  { ts: 11, type: "say", say: "api_req_started", apiRequest: { tokensIn: 300, tokensOut: 40, cacheWrites: 0, cacheReads: 3_000, cost: 0.0021, outcome: "completed" } },
  { ts: 12, type: "say", say: "completion_result", text: "The parser keeps the last token now." },
  { ts: 13, type: "ask", ask: "completion_result", text: "" },
];
const item: HistoryItem = { id: "t-1", text: "Fix the parser\nIt drops the last token.", startedAt: chat[0]!.ts, usage: sumUsage(chat), status: "completed", workspace: "/w/app" };

describe("a task exported as Markdown", () => {
  const markdown = taskMarkdown(item, chat);

  it("says what the task was, how it ended and what it cost in all", () => {
    expect(markdown).toMatch(/^# Fix the parser\n/);
    expect(markdown).toContain("| Task | `t-1` |");
    expect(markdown).toContain("| Started | 2026-01-02 09:30:00 UTC |");
    expect(markdown).toContain("| Status | completed |");
    expect(markdown).toContain("| Workspace | `/w/app` |");
    expect(markdown).toContain("| Requests | 2 |");
    expect(markdown).toMatch(/## Totals\n\n2 requests: 1,500 tokens in, 120 out, 3,000 cache writes, 3,000 cache reads, \$0\.0144\.\n$/);
  });

  it("gives the conversation in order: the person, the model, each tool call with what it was given and returned, each request's cost", () => {
    const order = [
      "### You · 2026-01-02 09:30:00 UTC\n\nFix the parser\nIt drops the last token.",
      "*Request 1: 1,200 tokens in, 80 out, 3,000 cache writes, 0 cache reads, $0.0123 (completed)*",
      "<details><summary>Thinking</summary>\n\nLook at the tokenizer first.",
      "### Tandem\n\nI'll read the tokenizer.",
      "#### Tool `read_file` · `src/tokenizer.ts` · done\n\nFile:\n\n```\n/w/app/src/tokenizer.ts\n```",
      "#### Tool `replace_in_file` · `src/tokenizer.ts` · approved\n\nChanges:\n\n```\n------- SEARCH\n  i < n - 1\n=======\n  i < n\n+++++++ REPLACE\n```",
      "**Command** `npm test` (approved)",
      // Output holding a fence gets a longer one.
      "Output:\n\n````\n```\n3 passing\n````\n\n*Exit code 0, outside the sandbox.*",
      '#### Tool `use_mcp_tool` · `weather/forecast` · done\n\nArguments:\n\n```\n{\n  "city": "Oslo"\n}\n```\n\nResult:\n\n```\nSunny\n```',
      "### You · 1970-01-01 00:00:00 UTC\n\nAlso add a test.",
      "*Request 2: 300 tokens in, 40 out, 0 cache writes, 3,000 cache reads, $0.0021 (completed)*",
      "### Result\n\nThe parser keeps the last token now.",
    ];
    let from = 0;
    for (const part of order) {
      const at = markdown.indexOf(part, from);
      expect(at, part).toBeGreaterThanOrEqual(from);
      from = at + part.length;
    }
  });

  it("offers a file name made of the date and the task's first words", () => {
    expect(exportFileName(item)).toBe("tandem-2026-01-02-fix-the-parser-it-drops-the-last-token.md");
    expect(exportFileName({ ...item, text: "///" })).toBe("tandem-2026-01-02-task.md");
  });
});
