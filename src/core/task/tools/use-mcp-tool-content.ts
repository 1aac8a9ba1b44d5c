/**
 * What an MCP server returned, as the model's tool result: text as text, images as image blocks,
 * embedded resources and resource links as tagged text, structured content as JSON, and a line for
 * whatever the hub cut to keep the result bounded (`core/mcp/tool-result.ts` did the bounding).
 * Shared by use_mcp_tool and access_mcp_resource.
 */
import type { ImageBlock, TextBlock } from "../../../api/types";
import { McpCallError, type McpContent, type McpResourceResult, type McpToolResult } from "../../mcp/types";
import { ToolError } from "./types";

type Blocks = (TextBlock | ImageBlock)[];

export function toolResultBlocks(where: string, result: McpToolResult): Blocks {
  const blocks: Blocks = [];
  if (result.isError) blocks.push({ type: "text", text: `${where} reported an error (the call ran, the tool says it failed):` });
  blocks.push(...result.content.map(contentBlock));
  if (result.structuredContent) blocks.push({ type: "text", text: `<structured_content>\n${JSON.stringify(result.structuredContent, null, 2)}\n</structured_content>` });
  if (result.structuredContentOmitted) blocks.push({ type: "text", text: "[The structured content was too large to pass on; the text above stands for it.]" });
  if (result.omittedChars > 0) blocks.push({ type: "text", text: omittedNote(result.omittedChars) });
  if (blocks.length === 0) blocks.push({ type: "text", text: `${where} returned no content.` });
  return blocks;
}

export function resourceResultBlocks(uri: string, result: McpResourceResult): Blocks {
  const blocks: Blocks = result.contents.map(contentBlock);
  if (result.omittedChars > 0) blocks.push({ type: "text", text: omittedNote(result.omittedChars) });
  if (blocks.length === 0) blocks.push({ type: "text", text: `The resource ${uri} is empty.` });
  return blocks;
}

function contentBlock(content: McpContent): TextBlock | ImageBlock {
  switch (content.type) {
    case "text":
      return { type: "text", text: content.text };
    case "image":
      return { type: "image", mediaType: content.mimeType, data: content.data };
    case "resource":
      return { type: "text", text: `<resource uri="${content.uri}"${content.mimeType ? ` mimeType="${content.mimeType}"` : ""}>\n${content.text}\n</resource>` };
    case "resource_link": {
      const details = [content.mimeType, content.description].filter(Boolean).join("; ");
      return { type: "text", text: `[resource link] ${content.name}: ${content.uri}${details ? ` (${details})` : ""}; read it with access_mcp_resource` };
    }
  }
}

function omittedNote(chars: number): string {
  return `[${chars.toLocaleString("en-US")} characters were cut from the middle of this result to keep it within bounds; ask for less (a narrower query, a page) if the middle matters.]`;
}

/**
 * A failed hub call as the tool's error. The model's mistakes (a server or tool that is not there,
 * arguments that do not fit the schema) are ToolErrors and count as such; the rest (a timeout, a
 * server that died or is not connected) are failures the model hears about without blame.
 */
export function mcpFailure(error: unknown): unknown {
  if (!(error instanceof McpCallError)) return error;
  switch (error.code) {
    case "unknown_server":
    case "unknown_tool":
      return new ToolError("not_found", error.message);
    case "invalid_arguments":
      return new ToolError("invalid_param", error.message);
    case "not_connected":
    case "connection_lost":
      return new Error(`MCP ${error.message}. Its tools cannot be used now: go on without them, or tell the person.`);
    default:
      return new Error(`MCP ${error.message}`);
  }
}
