/**
 * classifyError on the SDKs' own error classes, built the way the SDKs build them
 * (`APIError.generate` for HTTP errors, the constructor for stream error events).
 */
import * as AnthropicSdk from "@anthropic-ai/sdk";
import * as OpenAiSdk from "openai";
import { describe, expect, it } from "vitest";
import { classifyError, retryAfterSeconds } from "../../src/api/classify-error.js";
import { ApiError } from "../../src/api/errors.js";

const ANTHROPIC = { provider: "Anthropic" };
const OPENAI = { provider: "OpenAI" };

function anthropicHttp(status: number, type: string, message: string, headers: Record<string, string> = {}) {
  const body = { type: "error", error: { type, message } };
  return AnthropicSdk.APIError.generate(status, body, undefined, new Headers({ "request-id": "req_ant", ...headers }));
}

function openAiHttp(status: number, error: Record<string, unknown>, headers: Record<string, string> = {}) {
  return OpenAiSdk.APIError.generate(status, { error }, undefined, new Headers({ "x-request-id": "req_oai", ...headers }));
}

describe("HTTP errors from Anthropic", () => {
  it.each([
    [429, "rate_limit_error", "rate_limited"],
    [529, "overloaded_error", "overloaded"],
    [500, "api_error", "server_error"],
    [502, "api_error", "server_error"],
    [401, "authentication_error", "auth"],
    [403, "permission_error", "auth"],
    [400, "invalid_request_error", "bad_request"],
    [404, "not_found_error", "bad_request"],
    [413, "request_too_large", "bad_request"],
  ] as const)("%i %s -> %s", (status, type, kind) => {
    const error = classifyError(anthropicHttp(status, type, "details here"), ANTHROPIC);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.requestId).toBe("req_ant");
    expect(error.message).toContain("details here");
    expect(error.message).toContain("Anthropic");
  });

  it("recognises a prompt that is too long", () => {
    const sdkError = anthropicHttp(400, "invalid_request_error", "prompt is too long: 208310 tokens > 200000 maximum");
    expect(classifyError(sdkError, ANTHROPIC).kind).toBe("context_window_exceeded");
  });

  it("recognises input plus max_tokens over the context limit", () => {
    const message = "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length";
    expect(classifyError(anthropicHttp(400, "invalid_request_error", message), ANTHROPIC).kind).toBe(
      "context_window_exceeded",
    );
  });

  it("reads retry-after in seconds, retry-after-ms, and an HTTP date", () => {
    expect(classifyError(anthropicHttp(429, "rate_limit_error", "slow", { "retry-after": "12" }), ANTHROPIC).retryAfterSeconds).toBe(12);
    expect(
      classifyError(anthropicHttp(429, "rate_limit_error", "slow", { "retry-after": "12", "retry-after-ms": "1500" }), ANTHROPIC)
        .retryAfterSeconds,
    ).toBe(1.5);
    const inThirty = new Date(Date.now() + 30_000).toUTCString();
    const fromDate = retryAfterSeconds(new Headers({ "retry-after": inThirty }));
    expect(fromDate).toBeGreaterThan(25);
    expect(fromDate).toBeLessThanOrEqual(30);
    expect(retryAfterSeconds(new Headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(classifyError(anthropicHttp(429, "rate_limit_error", "slow"), ANTHROPIC).retryAfterSeconds).toBeUndefined();
  });
});

describe("error events in an Anthropic stream", () => {
  // The SDK throws these with no status when it meets `event: error`.
  function streamError(type: AnthropicSdk.Anthropic.ErrorType, message: string) {
    return new AnthropicSdk.APIError(undefined, { type: "error", error: { type, message } }, undefined, new Headers(), type);
  }

  it.each([
    ["overloaded_error", "overloaded"],
    ["api_error", "server_error"],
    ["rate_limit_error", "rate_limited"],
    ["invalid_request_error", "bad_request"],
    ["timeout_error", "server_error"],
    ["billing_error", "auth"],
  ] as const)("%s -> %s", (type, kind) => {
    const error = classifyError(streamError(type, "went wrong"), ANTHROPIC);
    expect(error.kind).toBe(kind);
    expect(error.status).toBeUndefined();
    expect(error.message).toContain("in stream");
  });
});

describe("HTTP errors from OpenAI and compatible servers", () => {
  it("429 with a retry-after -> rate_limited", () => {
    const error = classifyError(
      openAiHttp(429, { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" }, { "retry-after": "20" }),
      OPENAI,
    );
    expect(error.kind).toBe("rate_limited");
    expect(error.retryAfterSeconds).toBe(20);
    expect(error.requestId).toBe("req_oai");
  });

  it("429 insufficient_quota -> auth, since waiting does not help", () => {
    const error = openAiHttp(429, { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota" });
    expect(classifyError(error, OPENAI).kind).toBe("auth");
  });

  it("503 overloaded -> overloaded, other 5xx -> server_error", () => {
    expect(classifyError(openAiHttp(503, { message: "The server is overloaded, please try again later." }), OPENAI).kind).toBe(
      "overloaded",
    );
    expect(classifyError(openAiHttp(502, { message: "Bad gateway" }), OPENAI).kind).toBe("server_error");
  });

  it("401 -> auth, 404 and 422 -> bad_request", () => {
    expect(classifyError(openAiHttp(401, { message: "Incorrect API key provided", code: "invalid_api_key" }), OPENAI).kind).toBe(
      "auth",
    );
    expect(classifyError(openAiHttp(404, { message: "The model `gpt-9` does not exist" }), OPENAI).kind).toBe("bad_request");
    expect(classifyError(openAiHttp(422, { message: "Unprocessable" }), OPENAI).kind).toBe("bad_request");
  });

  it("recognises context overflow from OpenAI, OpenRouter and llama.cpp bodies", () => {
    const bodies = [
      {
        message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        type: "invalid_request_error",
        code: "context_length_exceeded",
      },
      { message: "Request too long", code: "context_length_exceeded" },
      {
        message:
          "This endpoint's maximum context length is 131072 tokens. However, you requested about 141607 tokens " +
          '(10535 of text input, 131072 in the output). Please reduce the length of either one, or use the "middle-out" transform.',
        code: 400,
        metadata: { provider_name: "Chutes" },
      },
      { message: "Provider returned error", code: 400, metadata: { raw: "prompt is too long: 300000 tokens > 200000 maximum" } },
      { message: "the request exceeds the available context size, try increasing it", type: "exceed_context_size_error", code: 400 },
    ];
    for (const body of bodies) {
      expect(classifyError(openAiHttp(400, body), OPENAI).kind, body.message).toBe("context_window_exceeded");
    }
  });

  it("does not mistake a token rate limit for a context overflow", () => {
    const error = openAiHttp(429, {
      message: "Request too large for gpt-4o: Limit 30000, Requested 45000 tokens per min. maximum context length",
      code: "rate_limit_exceeded",
    });
    expect(classifyError(error, OPENAI).kind).toBe("rate_limited");
  });

  it("reads an OpenRouter error in the stream by its numeric code", () => {
    const midStream = new OpenAiSdk.APIError(undefined, { message: "Upstream error", code: 502 }, undefined, new Headers());
    const error = classifyError(midStream, OPENAI);
    expect(error.kind).toBe("server_error");
    expect(error.status).toBe(502);
  });
});

describe("connection and abort errors", () => {
  it("aborts -> aborted, from either SDK or fetch itself", () => {
    expect(classifyError(new AnthropicSdk.APIUserAbortError(), ANTHROPIC).kind).toBe("aborted");
    expect(classifyError(new OpenAiSdk.APIUserAbortError(), OPENAI).kind).toBe("aborted");
    expect(classifyError(new DOMException("This operation was aborted", "AbortError"), OPENAI).kind).toBe("aborted");
  });

  it("anything after our own abort -> aborted", () => {
    expect(classifyError(new TypeError("terminated"), { ...OPENAI, aborted: true }).kind).toBe("aborted");
  });

  it("`TypeError: terminated` (socket closed mid-body) -> connection_lost", () => {
    const error = classifyError(new TypeError("terminated", { cause: new Error("other side closed") }), ANTHROPIC);
    expect(error.kind).toBe("connection_lost");
    expect(error.message).toContain("other side closed");
  });

  it("a failed connection -> connection_lost, naming the cause", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    const sdkError = new OpenAiSdk.APIConnectionError({ cause: new TypeError("fetch failed", { cause: refused }) });
    const error = classifyError(sdkError, OPENAI);
    expect(error.kind).toBe("connection_lost");
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("the SDK's request timeout -> stalled", () => {
    expect(classifyError(new AnthropicSdk.APIConnectionTimeoutError(), ANTHROPIC).kind).toBe("stalled");
  });

  it("an ApiError passes through unchanged; anything else is unknown", () => {
    const original = new ApiError("truncated", "cut short");
    expect(classifyError(original, ANTHROPIC)).toBe(original);
    const unknown = classifyError(new RangeError("odd"), ANTHROPIC);
    expect(unknown.kind).toBe("unknown");
    expect(unknown.message).toContain("odd");
    expect(unknown.cause).toBeInstanceOf(RangeError);
  });
});
