/**
 * Our history (Anthropic's block shape) to OpenAI chat.completions messages: tool_use blocks
 * become the assistant's `tool_calls`, each tool_result its own `role: "tool"` message right
 * after it, images `image_url` data URLs. Thinking blocks are not sent: chat.completions has
 * no field for them.
 */
import type OpenAI from "openai";
import type { ApiMessage, ContentBlock, ImageBlock, ToolResultBlock, ToolSpec } from "../types.js";

type Message = OpenAI.ChatCompletionMessageParam;
type UserPart = OpenAI.ChatCompletionContentPartText | OpenAI.ChatCompletionContentPartImage;

export function toOpenAiMessages(systemPrompt: string, messages: readonly ApiMessage[]): Message[] {
  const out: Message[] = systemPrompt.trim() === "" ? [] : [{ role: "system", content: systemPrompt }];
  for (const message of messages) {
    if (typeof message.content === "string") {
      out.push({ role: message.role, content: message.content });
    } else if (message.role === "assistant") {
      out.push(assistantMessage(message.content));
    } else {
      out.push(...userMessages(message.content));
    }
  }
  return out;
}

export function toOpenAiTools(tools: readonly ToolSpec[]): OpenAI.ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

function assistantMessage(blocks: readonly ContentBlock[]): OpenAI.ChatCompletionAssistantMessageParam {
  const text = blocks
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
  const toolCalls = blocks
    .filter((block) => block.type === "tool_use")
    .map(
      (block): OpenAI.ChatCompletionMessageFunctionToolCall => ({
        id: block.id,
        type: "function",
        function: { name: block.name, arguments: JSON.stringify(block.input) },
      }),
    );
  if (toolCalls.length === 0) return { role: "assistant", content: text };
  return { role: "assistant", content: text === "" ? null : text, tool_calls: toolCalls };
}

/**
 * Tool results go first, since they must directly follow the assistant's tool calls; the
 * rest of the message (and any image a tool returned, which a tool message cannot carry)
 * follows as one user message.
 */
function userMessages(blocks: readonly ContentBlock[]): Message[] {
  const toolMessages: OpenAI.ChatCompletionToolMessageParam[] = [];
  const parts: UserPart[] = [];
  for (const block of blocks) {
    if (block.type === "tool_result") {
      const { message, images } = toolResult(block);
      toolMessages.push(message);
      parts.push(...images);
    } else if (block.type === "text") {
      parts.push({ type: "text", text: block.text });
    } else if (block.type === "image") {
      parts.push(imagePart(block));
    }
  }
  if (parts.length === 0) return toolMessages;
  // Plain text as a string: some local servers accept nothing else.
  const content = parts.every((part) => part.type === "text") ? parts.map((part) => part.text).join("\n\n") : parts;
  return [...toolMessages, { role: "user", content }];
}

function toolResult(block: ToolResultBlock): {
  message: OpenAI.ChatCompletionToolMessageParam;
  images: OpenAI.ChatCompletionContentPartImage[];
} {
  const parts = typeof block.content === "string" ? [{ type: "text" as const, text: block.content }] : block.content;
  const texts = parts.flatMap((part) => (part.type === "text" ? [part.text] : []));
  const images = parts.flatMap((part) => (part.type === "image" ? [imagePart(part)] : []));
  if (images.length > 0) texts.push(`(${images.length} image(s) attached in the next message)`);
  const text = texts.join("\n");
  return {
    message: { role: "tool", tool_call_id: block.toolUseId, content: block.isError ? `Error: ${text}` : text },
    images,
  };
}

function imagePart(block: ImageBlock): OpenAI.ChatCompletionContentPartImage {
  return { type: "image_url", image_url: { url: `data:${block.mediaType};base64,${block.data}` } };
}
