/** A question Tandem asks for a reason of its own (a guard file, a secret, outside the workspace) says so on its row. */
import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../src/shared/messages";
import { ExtensionStore } from "../state/extension-store";
import { PanelContext } from "../state/panel-context";
import { ask } from "../test-support/fixtures";
import { createMemoryApi } from "../vscode-api";
import { RowForMessage } from "./MessageRow";

function rowText(message: ChatMessage): string {
  const panel = { api: createMemoryApi(), store: new ExtensionStore() };
  const { container, unmount } = render(
    <PanelContext.Provider value={panel}>
      <RowForMessage message={message} />
    </PanelContext.Provider>,
  );
  const text = container.textContent ?? "";
  unmount();
  return text;
}

describe("why Tandem asks", () => {
  it("shows the reason on an edit's question, and that no switch lets it through", () => {
    const why = ".tandemignore decides what Tandem may not read. Tandem always asks before changing it, even in YOLO mode.";
    const text = rowText(ask("tool", 1, { tool: { tool: "write_to_file", path: ".tandemignore", content: "", why, alwaysAsks: true } }));
    expect(text).toContain(why);
    expect(text).toContain("always asks");
  });

  it("shows it under a command, apart from the command line", () => {
    const why = "Asked because cat reads /etc/passwd, outside the workspace.";
    const text = rowText(ask("command", 2, { text: "cat /etc/passwd", tool: { tool: "execute_command", content: "cat /etc/passwd", why } }));
    expect(text).toContain("$ cat /etc/passwd");
    expect(text).toContain(why);
    expect(text).not.toContain("always asks");
  });
});
