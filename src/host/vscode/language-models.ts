/**
 * The chat models VS Code offers (Copilot's, or any extension's that contributes some), for the
 * settings view's model picker, and a way to hear that the set changed (a sign-in, an extension
 * installed) so the picker's list is read again. `vscode` is imported for its types only: the
 * caller hands in `vscode.lm`.
 */
import type * as vscode from "vscode";
import type { ListedModel } from "../../api/model-lists";
import type { ModelInfo } from "../../api/types";

/** What is used of `vscode.lm`. */
export type ChatModelSource = Pick<typeof vscode.lm, "selectChatModels" | "onDidChangeChatModels">;

/**
 * VS Code does not say how long an answer may be; a modest limit keeps Tandem's output reserve
 * (and its context budget) safe on any of them.
 */
export const VSCODE_LM_MAX_OUTPUT_TOKENS = 4_096;

/** Every chat model VS Code offers now, in its order, each id once. */
export async function listVscodeChatModels(lm: Pick<ChatModelSource, "selectChatModels">): Promise<ListedModel[]> {
  const models = await lm.selectChatModels();
  const seen = new Set<string>();
  const listed: ListedModel[] = [];
  for (const model of models) {
    if (!model.id || seen.has(model.id)) continue;
    seen.add(model.id);
    const tools = toolCalling(model);
    listed.push({
      id: model.id,
      name: model.vendor && model.name ? `${model.name} (${model.vendor})` : model.name || model.id,
      info: modelInfo(model),
      ...(tools === undefined ? {} : { supportsTools: tools }),
    });
  }
  return listed;
}

/** Calls `listener` whenever the set of models changes; dispose the result to stop. */
export function onVscodeChatModelsChanged(lm: Pick<ChatModelSource, "onDidChangeChatModels">, listener: () => void): vscode.Disposable {
  return lm.onDidChangeChatModels(() => listener());
}

function modelInfo(model: vscode.LanguageModelChat): Partial<ModelInfo> {
  const window = Number.isInteger(model.maxInputTokens) && model.maxInputTokens > 0 ? model.maxInputTokens : undefined;
  return {
    ...(window === undefined ? {} : { contextWindow: window }),
    maxOutputTokens: window === undefined ? VSCODE_LM_MAX_OUTPUT_TOKENS : Math.min(VSCODE_LM_MAX_OUTPUT_TOKENS, Math.floor(window / 2)),
    // The subscription pays (Copilot counts premium requests, not tokens): no per-token price.
    inputPrice: 0,
    outputPrice: 0,
    cacheWritePrice: 0,
    cacheReadPrice: 0,
    // The handler sends text only (images are a proposed API in VS Code 1.100).
    supportsImages: false,
    supportsPromptCache: false,
    thinking: "none",
    supportsTemperature: false,
  };
}

/**
 * Whether the model calls tools, where VS Code says so: `capabilities` is not in 1.100's typings
 * (the proposed `languageModelCapabilities`), though 1.100 sets it; absent elsewhere.
 */
function toolCalling(model: vscode.LanguageModelChat): boolean | undefined {
  const capabilities = (model as { capabilities?: { supportsToolCalling?: unknown } }).capabilities;
  return typeof capabilities?.supportsToolCalling === "boolean" ? capabilities.supportsToolCalling : undefined;
}
