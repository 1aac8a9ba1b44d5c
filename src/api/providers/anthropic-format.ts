/**
 * Our history (already in Anthropic's block shape) to Anthropic Messages API parameters,
 * with the prompt-cache breakpoints: the system prompt and the last block of each of the
 * last two user messages. The newest breakpoint writes the cache; the one before reads
 * what the previous request wrote.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { ApiError } from "../errors.js";
import type { ApiMessage, ContentBlock, ImageBlock, ModelInfo, TextBlock, ToolSpec } from "../types.js";

type ImageMediaType = Anthropic.Base64ImageSource["media_type"];
type CacheableBlock = Exclude<
  Anthropic.ContentBlockParam,
  Anthropic.ThinkingBlockParam | Anthropic.RedactedThinkingBlockParam
>;

const IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/gif", "image/webp"];
const EPHEMERAL = { type: "ephemeral" } as const;

export function toAnthropicSystem(systemPrompt: string, cache: boolean): Anthropic.TextBlockParam[] | undefined {
  // The API rejects empty text blocks.
  if (systemPrompt.trim() === "") return undefined;
  return [{ type: "text", text: systemPrompt, ...(cache ? { cache_control: EPHEMERAL } : {}) }];
}

export function toAnthropicMessages(messages: readonly ApiMessage[], cache: boolean): Anthropic.MessageParam[] {
  const converted = messages.map(
    (message): Anthropic.MessageParam => ({
      role: message.role,
      content: typeof message.content === "string" ? message.content : blocksOf(message.content),
    }),
  );
  if (cache) markLastUserMessages(converted, 2);
  return converted;
}

export function toAnthropicTools(tools: readonly ToolSpec[]): Anthropic.Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.inputSchema, type: "object" },
  }));
}

/**
 * The `thinking` parameter for a model, or none. Without a budget each model keeps its default:
 * off for Claude 4.6 and earlier, on for Claude 5 (always on for Opus 5.5 and Fable 5.1+, where
 * `disabled` is a 400, so it is never sent). With a budget: manual models get it as
 * `budget_tokens`; adaptive models refuse `enabled` with a 400 and get `adaptive`, the number
 * itself is not sent (the model decides how much to think; depth would be `output_config.effort`,
 * whose levels differ per model, so it is left at the model's default).
 */
export function toAnthropicThinking(info: ModelInfo, budget: number | undefined): Anthropic.ThinkingConfigParam | undefined {
  if (budget === undefined) return undefined;
  switch (info.thinking) {
    case "manual":
      return { type: "enabled", budget_tokens: budget };
    case "adaptive":
      return { type: "adaptive" };
    case "none":
      return undefined;
  }
}

function markLastUserMessages(messages: Anthropic.MessageParam[], count: number): void {
  let marked = 0;
  for (let i = messages.length - 1; i >= 0 && marked < count; i--) {
    const message = messages[i];
    if (message?.role !== "user") continue;
    const blocks: Anthropic.ContentBlockParam[] =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : [...message.content];
    const last = blocks.at(-1);
    if (!last || last.type === "thinking" || last.type === "redacted_thinking") continue;
    blocks[blocks.length - 1] = { ...last, cache_control: EPHEMERAL } as CacheableBlock;
    messages[i] = { ...message, content: blocks };
    marked++;
  }
}

function blocksOf(blocks: readonly ContentBlock[]): Anthropic.ContentBlockParam[] {
  const out: Anthropic.ContentBlockParam[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        out.push(textOf(block));
        break;
      case "image":
        out.push(imageOf(block));
        break;
      case "tool_use":
        out.push({ type: "tool_use", id: block.id, name: block.name, input: block.input });
        break;
      case "tool_result":
        out.push({
          type: "tool_result",
          tool_use_id: block.toolUseId,
          content:
            typeof block.content === "string"
              ? block.content
              : block.content.map((part) => (part.type === "text" ? textOf(part) : imageOf(part))),
          ...(block.isError ? { is_error: true } : {}),
        });
        break;
      case "thinking":
        // Without its signature the API refuses a thinking block; such a block (say, from a
        // provider that has no signatures) is not sent back.
        if (block.signature) out.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
        break;
      case "redacted_thinking":
        out.push({ type: "redacted_thinking", data: block.data });
        break;
    }
  }
  return out;
}

function textOf(block: TextBlock): Anthropic.TextBlockParam {
  return { type: "text", text: block.text };
}

function imageOf(block: ImageBlock): Anthropic.ImageBlockParam {
  if (!IMAGE_TYPES.includes(block.mediaType)) {
    throw new ApiError(
      "bad_request",
      `Anthropic accepts images of type ${IMAGE_TYPES.join(", ")}; this one is "${block.mediaType}".`,
    );
  }
  return {
    type: "image",
    source: { type: "base64", media_type: block.mediaType as ImageMediaType, data: block.data },
  };
}
