/** An error's message names its HTTP status once, whatever the body held (the SDKs start theirs with it). */
import * as AnthropicSdk from "@anthropic-ai/sdk";
import * as OpenAiSdk from "openai";
import { describe, expect, it } from "vitest";
import { classifyError } from "../../src/api/classify-error.js";

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe("the status in an error's message", () => {
  it.each([
    ["Anthropic, no body", AnthropicSdk.APIError.generate(500, undefined, undefined, new Headers())],
    ["OpenAI, no body", OpenAiSdk.APIError.generate(502, undefined, undefined, new Headers())],
    ["Anthropic, a body without a message", AnthropicSdk.APIError.generate(503, { detail: "upstream down" }, undefined, new Headers())],
    ["OpenAI, a plain error body", OpenAiSdk.APIError.generate(401, { error: { message: "Incorrect API key provided." } }, undefined, new Headers())],
  ])("%s", (_name, sdkError) => {
    const error = classifyError(sdkError, { provider: "Provider" });
    const status = String(error.status);
    expect(count(error.message, status), error.message).toBe(1);
    expect(error.message).not.toMatch(/status code \(no body\)/);
  });

  it("keeps the detail the body gave", () => {
    const error = classifyError(AnthropicSdk.APIError.generate(503, { detail: "upstream down" }, undefined, new Headers()), { provider: "Anthropic" });
    expect(error.message).toContain("upstream down");
  });
});
