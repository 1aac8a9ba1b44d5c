/**
 * Our history (Anthropic's block shape) to Gemini's generateContent request: the system prompt
 * becomes `systemInstruction`, the roles `user` and `model`, images `inlineData`, a tool_use a
 * `functionCall` part and a tool_result a `functionResponse` part named after the call it
 * answers. Thinking text is not sent back; its signature is, on the part Gemini expects it.
 */
import type { Content, FunctionDeclaration, Part, ThinkingConfig, Tool } from "@google/genai";
import { ApiError } from "../errors.js";
import type { ApiMessage, ContentBlock, ImageBlock, ModelInfo, ToolResultBlock, ToolSpec } from "../types.js";

/** What Gemini reads as images (ai.google.dev/gemini-api/docs/image-understanding); image/jpg is JPEG's other name. */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  "image/png": "image/png",
  "image/jpeg": "image/jpeg",
  "image/jpg": "image/jpeg",
  "image/webp": "image/webp",
  "image/heic": "image/heic",
  "image/heif": "image/heif",
};

/**
 * Ids the handler makes up for calls Gemini sent without one. They mean nothing to Gemini, so they
 * are left out when the history goes back (a real id is kept).
 */
export const GENERATED_CALL_ID_PREFIX = "gemini_call_";

/**
 * Google's documented stand-in for a missing thought signature: Gemini 3 and later refuse a
 * function call in the history without one (a 400), e.g. one another provider made, or one whose
 * signature was lost. https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export const SKIP_SIGNATURE_VALIDATION = "skip_thought_signature_validator";

export interface ContentOptions {
  /** Who answers, for messages. */
  provider: string;
  /** Whether a function call without a signature needs the stand-in (Gemini 3 and later). */
  signaturesRequired: boolean;
}

export function toGeminiSystem(systemPrompt: string): Content | undefined {
  // Gemini refuses empty text parts.
  return systemPrompt.trim() === "" ? undefined : { parts: [{ text: systemPrompt }] };
}

export function toGeminiContents(messages: readonly ApiMessage[], options: ContentOptions): Content[] {
  const toolNames = new Map<string, string>();
  const contents: Content[] = [];
  for (const message of messages) {
    const blocks: readonly ContentBlock[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    const parts = message.role === "assistant" ? modelParts(blocks, toolNames, options) : userParts(blocks, toolNames, options.provider);
    if (parts.length === 0) continue;
    const role = message.role === "assistant" ? "model" : "user";
    const previous = contents.at(-1);
    // A message left empty (thinking only) would put two turns of one role side by side: join them.
    if (previous?.role === role) previous.parts = [...(previous.parts ?? []), ...parts];
    else contents.push({ role, parts });
  }
  return contents;
}

export function toGeminiTools(tools: readonly ToolSpec[]): Tool[] {
  // parametersJsonSchema takes JSON Schema as it is; `parameters` wants Google's OpenAPI subset.
  const functionDeclarations = tools.map(
    (tool): FunctionDeclaration => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.inputSchema }),
  );
  return [{ functionDeclarations }];
}

/**
 * Thoughts are asked for whenever the model thinks, or they stay hidden (and billed). A manual
 * model (Gemini 2.5) gets the budget when one is set; adaptive ones (Gemini 3 and later) think at
 * their default level, and Gemini 4 refuses a budget with a 400.
 */
export function toGeminiThinking(info: ModelInfo, budget: number | undefined): ThinkingConfig | undefined {
  switch (info.thinking) {
    case "none":
      return undefined;
    case "manual":
      return budget === undefined ? { includeThoughts: true } : { includeThoughts: true, thinkingBudget: budget };
    case "adaptive":
      return { includeThoughts: true };
  }
}

function modelParts(blocks: readonly ContentBlock[], toolNames: Map<string, string>, options: ContentOptions): Part[] {
  const parts: Part[] = [];
  let signature: string | undefined;
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        if (block.text !== "") parts.push({ text: block.text });
        break;
      case "image":
        parts.push(imagePart(block, options.provider));
        break;
      case "tool_use":
        toolNames.set(block.id, block.name);
        parts.push({ functionCall: { ...callId(block.id), name: block.name, args: block.input } });
        break;
      case "thinking":
        signature ??= block.signature;
        break;
      case "tool_result":
      case "redacted_thinking":
        // Not the model's to say, and nothing Gemini has: left out.
        break;
    }
  }
  placeSignature(parts, signature, options.signaturesRequired);
  return parts;
}

/**
 * Gemini signs the first function call of an answer (an answer without one: its last part), and
 * checks that signature when the call comes back.
 */
function placeSignature(parts: Part[], signature: string | undefined, required: boolean): void {
  const firstCall = parts.findIndex((part) => part.functionCall !== undefined);
  if (firstCall >= 0) {
    const value = signature ?? (required ? SKIP_SIGNATURE_VALIDATION : undefined);
    if (value !== undefined) parts[firstCall] = { ...parts[firstCall], thoughtSignature: value };
    return;
  }
  const last = parts.length - 1;
  if (signature !== undefined && last >= 0) parts[last] = { ...parts[last], thoughtSignature: signature };
}

/**
 * Function responses first, as Gemini expects them right after the calls; then the images the
 * tools returned (a function response carries no image every model reads); then the rest.
 */
function userParts(blocks: readonly ContentBlock[], toolNames: ReadonlyMap<string, string>, provider: string): Part[] {
  const responses: Part[] = [];
  const toolImages: Part[] = [];
  const rest: Part[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        if (block.text !== "") rest.push({ text: block.text });
        break;
      case "image":
        rest.push(imagePart(block, provider));
        break;
      case "tool_result": {
        const name = toolNames.get(block.toolUseId);
        if (name === undefined) {
          throw new ApiError("bad_request", `${provider}: a tool result (id "${block.toolUseId}") answers no tool call earlier in the conversation.`);
        }
        responses.push({ functionResponse: { ...callId(block.toolUseId), name, response: responseOf(block) } });
        toolImages.push(...imagesOf(block, provider));
        break;
      }
      case "tool_use":
      case "thinking":
      case "redacted_thinking":
        break;
    }
  }
  return [...responses, ...toolImages, ...rest];
}

/** Google's convention: the output under "output", a failure under "error". */
function responseOf(block: ToolResultBlock): Record<string, unknown> {
  const text =
    typeof block.content === "string"
      ? block.content
      : block.content
          .filter((part) => part.type === "text")
          .map((part) => part.text)
          .join("\n");
  return block.isError ? { error: text } : { output: text };
}

function imagesOf(block: ToolResultBlock, provider: string): Part[] {
  if (typeof block.content === "string") return [];
  return block.content.filter((part) => part.type === "image").map((part) => imagePart(part, provider));
}

function callId(id: string): { id?: string } {
  return id === "" || id.startsWith(GENERATED_CALL_ID_PREFIX) ? {} : { id };
}

function imagePart(block: ImageBlock, provider: string): Part {
  const mimeType = IMAGE_TYPES[block.mediaType.toLowerCase()];
  if (mimeType === undefined) {
    throw new ApiError(
      "bad_request",
      `${provider} accepts images of type image/png, image/jpeg, image/webp, image/heic and image/heif; this one is "${block.mediaType}".`,
    );
  }
  return { inlineData: { mimeType, data: block.data } };
}
