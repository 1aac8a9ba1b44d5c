/**
 * What an MCP call returned, as the panel shows it (`McpResultView`). The hub's result is already
 * bounded for the model; a chat row is saved with the task and re-sent to the panel whole, so it
 * is cut again, smaller: text up to `textChars` in all (each part keeps its head), images as data
 * URLs up to `imageChars` of base64 in all and only of the raster types an <img> shows, at most
 * `parts` parts. What was left out is named in `omitted`. The model's copy is not touched here.
 */
import type { McpResultPart, McpResultView } from "../../../shared/messages";
import type { McpContent, McpResourceResult, McpToolResult } from "../../mcp/types";

export interface ViewLimits {
  readonly textChars: number;
  readonly imageChars: number;
  readonly parts: number;
}

export const VIEW_LIMITS: ViewLimits = { textChars: 20_000, imageChars: 1_000_000, parts: 50 };

/** The panel shows these in an <img>; anything else (SVG, TIFF, …) is named, not shown. */
const SHOWN_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function toolResultView(result: McpToolResult, limits: ViewLimits = VIEW_LIMITS): McpResultView {
  const contents: McpContent[] = [...result.content];
  // The spec asks a server to repeat structured output as text; when it did not, show the JSON.
  if (contents.length === 0 && result.structuredContent) contents.push({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) });
  return { ...(result.isError ? { isError: true } : {}), ...shape(contents, limits) };
}

export function resourceResultView(result: McpResourceResult, limits: ViewLimits = VIEW_LIMITS): McpResultView {
  return shape(result.contents, limits);
}

function shape(contents: readonly McpContent[], limits: ViewLimits): Omit<McpResultView, "isError"> {
  const budget = new Budget(limits);
  const parts: McpResultPart[] = [];
  for (const content of contents) {
    if (parts.length >= limits.parts) {
      budget.leftItems++;
      continue;
    }
    const part = budget.fit(content);
    if (part) parts.push(part);
  }
  const omitted = budget.describe();
  return { parts, ...(omitted ? { omitted } : {}) };
}

class Budget {
  private text: number;
  private images: number;
  cutChars = 0;
  leftImages = 0;
  leftItems = 0;

  constructor(limits: ViewLimits) {
    this.text = limits.textChars;
    this.images = limits.imageChars;
  }

  fit(content: McpContent): McpResultPart | undefined {
    switch (content.type) {
      case "text": {
        const text = this.take(content.text);
        return text === undefined ? undefined : { type: "text", text };
      }
      case "resource": {
        const text = this.take(content.text);
        if (text === undefined) return undefined;
        return { type: "resource", uri: this.short(content.uri), ...(content.mimeType ? { mimeType: content.mimeType } : {}), text };
      }
      case "resource_link":
        return {
          type: "resource_link",
          uri: this.short(content.uri),
          name: this.short(content.name),
          ...(content.description ? { description: this.short(content.description) } : {}),
          ...(content.mimeType ? { mimeType: content.mimeType } : {}),
        };
      case "image":
        return this.image(content);
    }
  }

  /** Text within what is left of the budget (its head), or undefined when none is left. */
  private take(text: string): string | undefined {
    if (text.length <= this.text) {
      this.text -= text.length;
      return text;
    }
    this.cutChars += text.length - this.text;
    const head = text.slice(0, this.text);
    this.text = 0;
    return head.length > 0 ? `${head}…` : undefined;
  }

  /** A name or URI: short by nature; a hostile one is cut at 500 characters. */
  private short(text: string): string {
    return text.length > 500 ? `${text.slice(0, 500)}…` : text;
  }

  private image(content: Extract<McpContent, { type: "image" }>): McpResultPart | undefined {
    const mimeType = content.mimeType.toLowerCase();
    const data = content.data.replace(/\s+/g, "");
    if (!SHOWN_IMAGE_TYPES.has(mimeType) || !BASE64.test(data) || data.length > this.images) {
      this.leftImages++;
      return { type: "text", text: `[an image (${content.mimeType}) the panel does not show]` };
    }
    this.images -= data.length;
    return { type: "image", mimeType, dataUrl: `data:${mimeType};base64,${data}` };
  }

  describe(): string | undefined {
    const said = [
      this.cutChars > 0 ? `${this.cutChars.toLocaleString("en-US")} characters of text` : "",
      this.leftImages > 0 ? `${this.leftImages} image${this.leftImages === 1 ? "" : "s"}` : "",
      this.leftItems > 0 ? `${this.leftItems} more part${this.leftItems === 1 ? "" : "s"}` : "",
    ].filter(Boolean);
    return said.length > 0 ? said.join(", ") : undefined;
  }
}
