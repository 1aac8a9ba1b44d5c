import { describe, expect, it } from "vitest";
import type { McpToolResult } from "../../mcp/types";
import { resourceResultView, toolResultView, type ViewLimits } from "./mcp-result-view";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
const result = (content: McpToolResult["content"], extra: Partial<McpToolResult> = {}): McpToolResult => ({ isError: false, content, omittedChars: 0, ...extra });
const SMALL: ViewLimits = { textChars: 10, imageChars: 200, parts: 3 };

describe("an MCP result as the panel shows it", () => {
  it("keeps text, images (as data URLs), embedded resources and links, in order", () => {
    const view = toolResultView(
      result([
        { type: "text", text: "Here:" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "resource", uri: "demo://a", mimeType: "text/plain", text: "inside" },
        { type: "resource_link", uri: "demo://b", name: "B", description: "the b" },
      ]),
    );
    expect(view).toEqual({
      parts: [
        { type: "text", text: "Here:" },
        { type: "image", mimeType: "image/png", dataUrl: `data:image/png;base64,${PNG}` },
        { type: "resource", uri: "demo://a", mimeType: "text/plain", text: "inside" },
        { type: "resource_link", uri: "demo://b", name: "B", description: "the b" },
      ],
    });
  });

  it("marks a tool's own error, and shows structured content only when there is no other content", () => {
    expect(toolResultView(result([{ type: "text", text: "Too big" }], { isError: true }))).toEqual({ isError: true, parts: [{ type: "text", text: "Too big" }] });
    const structured = { structuredContent: { temperature: 21 } };
    expect(toolResultView(result([], structured)).parts).toEqual([{ type: "text", text: '{\n  "temperature": 21\n}' }]);
    expect(toolResultView(result([{ type: "text", text: "21 degrees" }], structured)).parts).toEqual([{ type: "text", text: "21 degrees" }]);
  });

  it("cuts text to the panel's budget across parts and says how much it left out", () => {
    const view = toolResultView(result([{ type: "text", text: "abcdef" }, { type: "text", text: "ghijklmnop" }, { type: "text", text: "qrs" }]), SMALL);
    expect(view.parts).toEqual([
      { type: "text", text: "abcdef" },
      { type: "text", text: "ghij…" },
    ]);
    expect(view.omitted).toBe("9 characters of text");
  });

  it("names images it does not show: too large, a type an <img> should not show, or not base64", () => {
    const view = toolResultView(
      result([
        { type: "image", data: "A".repeat(400), mimeType: "image/png" },
        { type: "image", data: "PHN2Zz4=", mimeType: "image/svg+xml" },
        { type: "image", data: 'x" onerror="alert(1)', mimeType: "image/png" },
      ]),
      { ...SMALL, textChars: 1000 },
    );
    expect(view.parts.every((p) => p.type === "text" && /does not show/.test(p.text))).toBe(true);
    expect(view.omitted).toBe("3 images");
  });

  it("keeps at most the panel's number of parts", () => {
    const view = toolResultView(result(["a", "b", "c", "d", "e"].map((text) => ({ type: "text", text }))), SMALL);
    expect(view.parts).toHaveLength(3);
    expect(view.omitted).toBe("2 more parts");
  });

  it("shows a resource's contents the same way", () => {
    expect(resourceResultView({ contents: [{ type: "resource", uri: "demo://r", text: "Resource 1" }], omittedChars: 0 })).toEqual({ parts: [{ type: "resource", uri: "demo://r", text: "Resource 1" }] });
  });
});
