/** An MCP call is approved knowing what it is (server, tool, description, arguments), and what it returned is shown. */
import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ChatMessage, McpResultView } from "../../../src/shared/messages";
import { ExtensionStore } from "../state/extension-store";
import { PanelContext } from "../state/panel-context";
import { ask, say } from "../test-support/fixtures";
import { createMemoryApi } from "../vscode-api";
import { RowForMessage } from "./MessageRow";

function rendered(message: ChatMessage): HTMLElement {
  const panel = { api: createMemoryApi(), store: new ExtensionStore() };
  const { container } = render(
    <PanelContext.Provider value={panel}>
      <RowForMessage message={message} />
    </PanelContext.Provider>,
  );
  return container;
}

const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, " ").trim() ?? "";
/** A collapsible's heading (a property of the element). */
const heading = (el: Element | null | undefined) => (el as { heading?: string } | null | undefined)?.heading;
const isOpen = (el: Element | null | undefined) => (el as { open?: boolean } | null | undefined)?.open === true;
const ECHO = { server: "everything", tool: "echo", description: "Echoes back the input string" };
const ARGS = '{\n  "message": "hi"\n}';
const call = { tool: { tool: "use_mcp_tool", mcp: ECHO, content: ARGS } };
const PNG = "data:image/png;base64,iVBORw0KGgo=";

describe("an MCP tool's approval row", () => {
  it("names the server and the tool, with the tool's description on hover, and shows the arguments as JSON under Arguments", () => {
    const row = rendered(ask("tool", 1, call));
    expect(text(row.querySelector(".row-title"))).toBe("Tandem wants to use echo from the MCP server everything");
    expect(row.querySelector(".mcp-row-tool")?.getAttribute("title")).toBe("Echoes back the input string");
    expect(row.querySelector(".mcp-row-server")?.textContent).toBe("everything");
    const args = row.querySelector(".mcp-row-arguments");
    expect(heading(args)).toBe("Arguments");
    // Open while it waits: the person sees what they approve.
    expect(isOpen(args)).toBe(true);
    expect(args?.querySelector("pre")?.textContent).toBe(ARGS);
    expect(row.textContent).not.toMatch(/use_mcp_tool|Result/);
  });

  it("says what became of it once answered, and folds the arguments", () => {
    const done = rendered(ask("tool", 1, { ...call, outcome: "yes" }));
    expect(text(done.querySelector(".row-title"))).toBe("Tandem used echo from the MCP server everything");
    expect(isOpen(done.querySelector(".mcp-row-arguments"))).toBe(false);
    expect(text(rendered(ask("tool", 2, { ...call, outcome: "no" })).querySelector(".row-title"))).toBe("Tandem wanted to use echo from the MCP server everything (rejected)");
    expect(text(rendered(say("tool", 3, call)).querySelector(".row-title"))).toBe("Tandem used echo from the MCP server everything");
  });

  it("a call Plan mode refused: named as the approval would be, with the calm note and not an error", () => {
    const note = "Plan mode does not run this tool.";
    const row = rendered(say("tool", 4, { text: note, tool: { ...call.tool, refusedIn: "plan" } }));
    expect(text(row.querySelector(".row-title"))).toBe("Tandem wanted to use echo from the MCP server everything (not run in Plan mode)");
    expect(row.querySelector(".row")?.className).toContain("tone-muted");
    expect(row.querySelector(".refused-note")?.textContent).toBe(note);
    expect(row.querySelector(".mcp-row-arguments pre")?.textContent).toBe(ARGS);
    expect(row.textContent).not.toMatch(/use_mcp_tool/);
  });

  it("says when there are no arguments", () => {
    expect(rendered(ask("tool", 1, { tool: { tool: "use_mcp_tool", mcp: { server: "s", tool: "t" }, content: "{}" } })).textContent).toContain("No arguments.");
  });

  it("names the server and the URI of a resource to read", () => {
    const row = rendered(ask("tool", 1, { tool: { tool: "access_mcp_resource", mcp: { server: "everything", uri: "demo://r/1", description: "Resource 1" }, content: "demo://r/1" } }));
    expect(text(row.querySelector(".row-title"))).toBe("Tandem wants to read a resource of the MCP server everything");
    expect(row.querySelector(".mcp-row-uri code")?.textContent).toBe("demo://r/1");
    expect(row.querySelector(".mcp-row-uri code")?.getAttribute("title")).toBe("Resource 1");
  });
});

describe("an MCP call's result row", () => {
  const resultRow = (result: McpResultView, mcp: { server: string; tool?: string; uri?: string } = ECHO) => rendered(say("tool", 9, { tool: { tool: "use_mcp_tool", mcp: { ...mcp, result } } }));

  it("shows text, images with alt text, embedded resources and links, folded open under Result", () => {
    const row = resultRow({
      parts: [
        { type: "text", text: "Echo: hi" },
        { type: "image", dataUrl: PNG, mimeType: "image/png" },
        { type: "resource", uri: "demo://a", mimeType: "text/plain", text: "inside a" },
        { type: "resource_link", uri: "demo://b", name: "B", description: "the b" },
      ],
    });
    expect(text(row.querySelector(".row-title"))).toBe("Result of echo from everything");
    const result = row.querySelector(".mcp-row-result");
    expect(heading(result)).toBe("Result");
    expect(isOpen(result)).toBe(true);
    expect(row.querySelector(".mcp-row-text")?.textContent).toBe("Echo: hi");
    const image = row.querySelector("img");
    expect(image?.getAttribute("src")).toBe(PNG);
    expect(image?.getAttribute("alt")).toBe("Image 2 returned by echo (image/png)");
    expect(text(row.querySelector(".mcp-row-resource-head"))).toBe("demo://a text/plain");
    expect(row.querySelector(".mcp-row-resource pre")?.textContent).toBe("inside a");
    expect(text(row.querySelector(".mcp-row-link"))).toMatch(/^B demo:\/\/b/);
    expect(row.querySelector(".mcp-row-link .muted-text")?.textContent).toBe("the b");
  });

  it("says calmly that the tool reported an error, and what the panel left out", () => {
    const row = resultRow({ isError: true, parts: [{ type: "text", text: "Too big" }], omitted: "1 image" });
    expect(text(row.querySelector(".row-title"))).toBe("echo on everything reported an error");
    expect(row.querySelector(".tone-error")).toBeNull();
    expect(row.textContent).toContain("The tool ran and says it failed");
    expect(row.textContent).toContain("Not shown here, to keep the panel light: 1 image.");
  });

  it("offers the whole result the model got cut to size, kept with the task, to open", () => {
    const api = createMemoryApi();
    const message = say("tool", 1, { tool: { tool: "use_mcp_tool", mcp: { ...ECHO, result: { parts: [{ type: "text", text: "head … tail" }], whole: { path: "/data/tasks/t1/kept/mcp-everything_echo-1.txt", chars: 250_000 } } } } });
    const { container } = render(
      <PanelContext.Provider value={{ api, store: new ExtensionStore() }}>
        <RowForMessage message={message} />
      </PanelContext.Provider>,
    );
    expect(container.textContent).toContain("The whole result (250,000 characters) is kept with the task");
    const open = [...container.querySelectorAll("button")].find((b) => b.textContent === "open it");
    open?.click();
    expect(api.posted).toContainEqual({ type: "openFile", path: "/data/tasks/t1/kept/mcp-everything_echo-1.txt" });
  });

  it("shows a resource's contents under Contents, and puts no other URL than an image's data into an <img>", () => {
    const row = resultRow({ parts: [{ type: "resource", uri: "demo://r/1", text: "Resource 1" }, { type: "image", dataUrl: "https://example.com/x.png", mimeType: "image/png" }] }, { server: "everything", uri: "demo://r/1" });
    expect(text(row.querySelector(".row-title"))).toBe("Contents of the resource demo://r/1 from everything");
    expect(heading(row.querySelector(".mcp-row-result"))).toBe("Contents");
    expect(row.querySelector("img")).toBeNull();
  });
});
