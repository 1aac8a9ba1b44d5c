/** A tool or command row says it did something only once it was approved (or ran by itself). */
import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../src/shared/messages";
import { ExtensionStore } from "../state/extension-store";
import { PanelContext } from "../state/panel-context";
import { ask, say } from "../test-support/fixtures";
import { createMemoryApi } from "../vscode-api";
import { RowForMessage } from "./MessageRow";

function titleOf(message: ChatMessage): string {
  const panel = { api: createMemoryApi(), store: new ExtensionStore() };
  const { container, unmount } = render(
    <PanelContext.Provider value={panel}>
      <RowForMessage message={message} />
    </PanelContext.Provider>,
  );
  const title = container.querySelector(".row-title")?.textContent ?? "";
  unmount();
  return title;
}

const edit = { tool: { tool: "replace_in_file", path: "src/a.ts", content: "------- SEARCH\na\n=======\nb\n+++++++ REPLACE" } } as const;

describe("an edit's row", () => {
  it("wants to edit while it streams and while it waits, and edited only once approved", () => {
    expect(titleOf(say("tool", 1, { ...edit, partial: true }))).toBe("Tandem wants to edit this file");
    expect(titleOf(ask("tool", 1, edit))).toBe("Tandem wants to edit this file");
    expect(titleOf(ask("tool", 1, { ...edit, outcome: "yes" }))).toBe("Tandem edited this file");
    expect(titleOf(ask("tool", 1, { ...edit, outcome: "no" }))).toBe("Tandem wanted to edit this file (rejected)");
    // Auto-approved: the finished say is the edit being made.
    expect(titleOf(say("tool", 1, edit))).toBe("Tandem edited this file");
  });

  it("says a call a PreToolUse hook blocked was not run", () => {
    const blocked = { tool: { tool: "write_to_file", path: "app.js", blocked: true } };
    expect(titleOf(say("tool", 1, blocked))).toBe("Tandem wanted to write this file (blocked by a PreToolUse hook, not run)");
  });

  it("says a call cut off before it ended was not run", () => {
    const cut = { tool: { tool: "write_to_file", path: "big.txt", content: "first lines", cutOff: true } };
    expect(titleOf(say("tool", 1, cut))).toBe("Tandem wanted to write this file (cut off before the tool call ended, not run)");
  });
});

describe("a command's row", () => {
  it("wants to run until approved, then ran it; a refusal says so", () => {
    expect(titleOf(ask("command", 1, { text: "npm test" }))).toBe("Tandem wants to run this command");
    expect(titleOf(ask("command", 1, { text: "npm test", outcome: "yes" }))).toBe("Tandem ran this command");
    expect(titleOf(ask("command", 1, { text: "npm test", outcome: "message" }))).toBe("Tandem wanted to run this command (rejected, with a message)");
    expect(titleOf(ask("command", 1, { text: "npm test", outcome: "cancelled" }))).toBe("Tandem wanted to run this command (cancelled)");
    expect(titleOf(say("command", 1, { text: "npm test" }))).toBe("Tandem ran this command");
  });
});
