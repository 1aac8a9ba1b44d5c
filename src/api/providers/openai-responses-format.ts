/**
 * Our history (Anthropic's block shape) to OpenAI Responses API input items: text becomes
 * `message` items, tool_use blocks `function_call` items and tool_result blocks
 * `function_call_output` items, images `input_image` data URLs. Thinking is not sent back:
 * we call with `store: false` and keep no encrypted reasoning to replay.
 */
import type OpenAI from "openai";
import type { ApiMessage, ContentBlock, ImageBlock, TextBlock, ToolResultBlock, ToolSpec } from "../types.js";

type InputItem = OpenAI.Responses.ResponseInputItem;
type UserPart = OpenAI.Responses.ResponseInputText | OpenAI.Responses.ResponseInputImage;

/**
 * An earlier assistant answer. The SDK's output-message type also wants an `id` and a `status`,
 * but those name stored items; with `store: false` the API takes the message without them.
 */
interface AssistantMessageItem {
  type: "message";
  role: "assistant";
  content: { type: "output_text"; text: string; annotations: [] }[];
}

export function toResponsesInput(messages: readonly ApiMessage[]): InputItem[] {
  return messages.flatMap((message, index) => {
    const where = `message ${index + 1} (${message.role})`;
    if (typeof message.content === "string") {
      return message.role === "user" ? userItems([{ type: "text", text: message.content }], where) : [assistantText(message.content)];
    }
    return message.role === "user" ? userItems(message.content, where) : assistantItems(message.content, where);
  });
}

export function toResponsesTools(tools: readonly ToolSpec[]): OpenAI.Responses.FunctionTool[] {
  // strict: false, since our schemas have optional properties, which strict mode refuses.
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  }));
}

function assistantItems(blocks: readonly ContentBlock[], where: string): InputItem[] {
  const items: InputItem[] = [];
  let texts: string[] = [];
  const flushText = () => {
    if (texts.length > 0) items.push(assistantText(texts.join("\n")));
    texts = [];
  };
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        texts.push(block.text);
        break;
      case "tool_use":
        flushText();
        items.push({ type: "function_call", call_id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
        break;
      case "thinking":
      case "redacted_thinking":
        break;
      default:
        throw unmappable(block, where);
    }
  }
  flushText();
  return items;
}

function assistantText(text: string): InputItem {
  const item: AssistantMessageItem = { type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] };
  return item as unknown as InputItem;
}

/**
 * Tool results go first, since they answer the function calls of the answer before; the rest
 * of the message follows as one user message.
 */
function userItems(blocks: readonly ContentBlock[], where: string): InputItem[] {
  const outputs: InputItem[] = [];
  const parts: UserPart[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "tool_result":
        outputs.push(functionCallOutput(block));
        break;
      case "text":
        parts.push({ type: "input_text", text: block.text });
        break;
      case "image":
        parts.push(imagePart(block));
        break;
      case "thinking":
      case "redacted_thinking":
        break;
      default:
        throw unmappable(block, where);
    }
  }
  if (parts.length === 0) return outputs;
  return [...outputs, { type: "message", role: "user", content: parts }];
}

/**
 * Text alone goes as a plain string. A result with images goes as a list of content parts,
 * which `function_call_output` takes (unlike chat.completions' tool message), so the image
 * stays with the call that produced it.
 */
function functionCallOutput(block: ToolResultBlock): InputItem {
  const parts: (TextBlock | ImageBlock)[] = typeof block.content === "string" ? [{ type: "text", text: block.content }] : block.content;
  const prefix = block.isError ? "Error: " : "";
  const texts = parts.flatMap((part) => (part.type === "text" ? [part.text] : []));
  if (texts.length === parts.length) {
    return { type: "function_call_output", call_id: block.toolUseId, output: prefix + texts.join("\n") };
  }
  const output: UserPart[] = parts.map((part) => (part.type === "text" ? { type: "input_text", text: part.text } : imagePart(part)));
  if (prefix) output.unshift({ type: "input_text", text: prefix.trim() });
  return { type: "function_call_output", call_id: block.toolUseId, output };
}

function imagePart(block: ImageBlock): OpenAI.Responses.ResponseInputImage {
  return { type: "input_image", image_url: `data:${block.mediaType};base64,${block.data}`, detail: "auto" };
}

function unmappable(block: ContentBlock, where: string): Error {
  return new Error(`The OpenAI Responses API has no place for a "${block.type}" block in ${where}.`);
}
