/**
 * Claude on Google Vertex AI: the Anthropic Messages stream, posted to the model's own path
 * (`/v1/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:streamRawPredict`)
 * with the API version in the body and the model only in the path. The answer is Anthropic's SSE.
 */
import { anthropicWire } from "./anthropic-wire.js";
import type { Wire } from "./wire.js";

const VERTEX_CLAUDE_PATH = /^\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/anthropic\/models\/[^/]+:streamRawPredict$/;

export const vertexAnthropicWire: Wire = {
  ...anthropicWire,
  protocol: "vertex-anthropic",
  matches: (path) => VERTEX_CLAUDE_PATH.test(path),
};
