import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../src/shared/messages";
import { ExtensionStore } from "../state/extension-store";
import { ASK_KINDS, SAY_KINDS } from "../state/message-kinds";
import { PanelContext } from "../state/panel-context";
import { ask, say } from "../test-support/fixtures";
import { createMemoryApi } from "../vscode-api";
import { RowForMessage } from "./MessageRow";

/** A message of each kind carrying every field a row might show. */
function sample(message: ChatMessage): ChatMessage {
  return {
    ...message,
    text: `text of ${message.type === "ask" ? message.ask : message.say}`,
    tool: { tool: "read_file", path: "src/a.ts", content: "result body" },
    apiRequest: { tokensIn: 1200, tokensOut: 34, cacheReads: 0, cacheWrites: 0, cost: 0.0123, outcome: "completed" },
    retry: { attempt: 2, maxAttempts: 5, delaySeconds: 30, reason: "429 rate limited" },
    options: ["Yes", "No"],
    focusChain: { items: [{ text: "Look", done: true }], by: "model" },
  };
}

function renderRow(message: ChatMessage) {
  const panel = { api: createMemoryApi(), store: new ExtensionStore() };
  return render(
    <PanelContext.Provider value={panel}>
      <RowForMessage message={message} />
    </PanelContext.Provider>,
  );
}

describe("a row for every message kind", () => {
  const cases: ChatMessage[] = [...SAY_KINDS.map((kind, i) => say(kind, i + 1)), ...ASK_KINDS.map((kind, i) => ask(kind, 100 + i))];

  it.each(cases.map((message) => [message.type === "ask" ? `ask:${message.ask}` : `say:${message.say}`, message] as const))(
    "%s has its own row",
    (kind, message) => {
      const { container } = renderRow(sample(message));
      const row = container.querySelector(`[data-row="${kind}"]`);
      expect(row).not.toBeNull();
      expect(row?.textContent).not.toContain("Unrecognised message");
      expect(row?.textContent?.trim().length).toBeGreaterThan(0);
    },
  );
});

describe("row contents", () => {
  it("renders Markdown safely with highlighted code", () => {
    const text = "Hello **world**\n\n<img src=x onerror=alert(1)><script>alert(2)</script>\n\n```ts\nconst a: number = 1;\n```";
    const { container } = renderRow(say("text", 1, { text }));
    expect(container.querySelector("strong")?.textContent).toBe("world");
    expect(container.querySelector("script")).toBeNull();
    expect(container.querySelector("img")?.getAttribute("onerror")).toBeNull();
    expect(container.querySelector("code.language-ts .hljs-keyword")?.textContent).toBe("const");
  });

  it("colours SEARCH/REPLACE blocks of a replace_in_file edit", () => {
    const diff = "------- SEARCH\nold line\n=======\nnew line\n+++++++ REPLACE";
    const { container } = renderRow(ask("tool", 1, { tool: { tool: "replace_in_file", path: "a.ts", content: diff } }));
    expect(screen.getByText("Tandem wants to edit this file")).toBeInTheDocument();
    expect(container.querySelector(".diff-removed")?.textContent).toContain("old line");
    expect(container.querySelector(".diff-added")?.textContent).toContain("new line");
    expect(container.querySelectorAll(".diff-marker")).toHaveLength(3);
  });

  it("says a task was interrupted once, then asks to resume", () => {
    const { container } = renderRow(ask("resume_task", 1, { text: "This task was interrupted. Resume it?" }));
    expect(container.textContent).toBe("This task was interruptedResume it?");
  });

  it("says what became of an answered tool question", () => {
    const write = { tool: { tool: "write_to_file", path: "b.txt", content: "x" } } as const;
    const rows: [Parameters<typeof ask>[2], string][] = [
      [write, "Tandem wants to write this file"],
      [{ ...write, outcome: "yes" }, "Tandem wrote this file"],
      [{ ...write, outcome: "no" }, "Tandem wanted to write this file (rejected)"],
      [{ ...write, outcome: "message" }, "Tandem wanted to write this file (rejected, with a message)"],
      [{ ...write, outcome: "cancelled" }, "Tandem wanted to write this file (cancelled)"],
    ];
    for (const [extra, title] of rows) {
      const { unmount } = renderRow(ask("tool", 1, extra));
      expect(screen.getByText(title)).toBeInTheDocument();
      unmount();
    }
  });

  it("shows the new content of a write_to_file", () => {
    renderRow(say("tool", 1, { tool: { tool: "write_to_file", path: "b.py", content: "def f():\n  return 1" } }));
    expect(screen.getByTestId("new-content-preview").textContent).toContain("def f()");
  });

  it("titles only the completion's say; its ask shows its text when it has some", () => {
    const { container, unmount } = renderRow(ask("completion_result", 1, { text: "Anything else?" }));
    expect(screen.queryByText("Task Completed")).toBeNull();
    expect(container.textContent).toContain("Anything else?");
    unmount();
    renderRow(say("completion_result", 2, { text: "All tests pass." }));
    expect(screen.getByText("Task Completed")).toBeInTheDocument();
    expect(screen.getByText("All tests pass.")).toBeInTheDocument();
  });

  it("shows tokens, cost, outcome and error of an API request", () => {
    renderRow(say("api_req_started", 1, { apiRequest: { tokensIn: 1500, tokensOut: 20, cacheReads: 0, cacheWrites: 0, cost: 0.5, outcome: "failed", error: "overloaded" } }));
    expect(screen.getByText("API request failed")).toBeInTheDocument();
    expect(screen.getByText("↑ 1.5k")).toBeInTheDocument();
    expect(screen.getByText("$0.5000")).toBeInTheDocument();
    expect(screen.getByText("overloaded")).toBeInTheDocument();
  });

  it("counts down to an automatic retry", async () => {
    renderRow(say("error_retry", 424242, { retry: { attempt: 1, maxAttempts: 3, delaySeconds: 2, reason: "500" } }));
    expect(screen.getByText(/Retrying in 2s \(attempt 1 of 3\)/)).toBeInTheDocument();
    expect(await screen.findByText(/Retrying in 1s/, undefined, { timeout: 2500 })).toBeInTheDocument();
  });
});
