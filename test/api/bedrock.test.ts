/**
 * What only AWS Bedrock does, through the real @anthropic-ai/bedrock-sdk and AWS credential chain
 * against the scripted model server: the model id in the path, the body Bedrock takes, SigV4
 * signatures for the configured region (checked here against the secret, by the algorithm as AWS
 * specifies it), which link of the chain signed (environment keys, the shared files of a throwaway
 * HOME, a named profile, a Bedrock API key, nothing at all), Bedrock's own errors, and the
 * event-stream framing itself. What every provider does is provider-wire.test.ts.
 */
import { createHash, createHmac } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import * as AnthropicSdk from "@anthropic-ai/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildApiHandler, type ApiConfiguration } from "../../src/api/index.js";
import type { ApiError } from "../../src/api/errors.js";
import type { ApiMessage } from "../../src/api/types.js";
import { BEDROCK_FAULTS, chunkFrame, EventStreamSink, exceptionFrame, sendBedrockError } from "../support/bedrock-wire.js";
import type { RecordedRequest } from "../support/script.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { drain, expectApiError } from "./stream-helpers.js";

const HELLO: ApiMessage[] = [{ role: "user", content: "hello" }];

/** Everything the AWS chain and the Bedrock SDK read from the environment, cleared for each test. */
const ENV_NAMES = [
  "HOME",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_CREDENTIAL_EXPIRATION",
  "AWS_PROFILE",
  "AWS_DEFAULT_PROFILE",
  "AWS_REGION",
  "AWS_DEFAULT_REGION",
  "AWS_CONFIG_FILE",
  "AWS_SHARED_CREDENTIALS_FILE",
  "AWS_WEB_IDENTITY_TOKEN_FILE",
  "AWS_ROLE_ARN",
  "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
  "AWS_CONTAINER_CREDENTIALS_FULL_URI",
  "AWS_EC2_METADATA_DISABLED",
  "AWS_BEARER_TOKEN_BEDROCK",
  "ANTHROPIC_BEDROCK_BASE_URL",
];

const ENV_KEYS = { id: "AKIAENVEXAMPLE0001", secret: "env/Secret+Key/EXAMPLE0001abcdefghij", token: "env-session-token-EXAMPLE-0001" };
const FILE_KEYS = { id: "AKIAFILEEXAMPLE002", secret: "file/Secret+Key/EXAMPLE0002abcdefghi" };
const WORK_KEYS = { id: "AKIAWORKEXAMPLE003", secret: "work/Secret+Key/EXAMPLE0003abcdefghi", token: "work-session-token-EXAMPLE-0003" };
const API_KEY = "ABSKQmVkcm9ja0FQSUtleS1leGFtcGxlLXRlc3Q=";
const SECRETS = [ENV_KEYS.secret, ENV_KEYS.token, FILE_KEYS.secret, WORK_KEYS.secret, WORK_KEYS.token, API_KEY];

let server: ScriptedModelServer;
let savedEnv: Record<string, string | undefined>;
/** An empty HOME of the test's own: the person's ~/.aws never counts. */
let home: string;

beforeEach(async () => {
  server = await startScriptedModelServer();
  savedEnv = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
  for (const name of ENV_NAMES) delete process.env[name];
  home = mkdtempSync(join(tmpdir(), "tandem-aws-home-"));
  process.env.HOME = home;
  // The chain's last link asks 169.254.169.254; never from a test.
  process.env.AWS_EC2_METADATA_DISABLED = "true";
});

afterEach(async () => {
  await server.close();
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const bedrock = (overrides: Partial<ApiConfiguration> = {}) =>
  buildApiHandler({ provider: "bedrock", awsRegion: "eu-west-3", baseUrl: server.url, modelId: "global.anthropic.claude-sonnet-5-5", ...overrides });

/** Answers "ok" and returns the request the server saw. */
async function signedRequest(overrides: Partial<ApiConfiguration> = {}): Promise<RecordedRequest> {
  server.enqueue({ text: "ok" });
  const result = await drain(bedrock(overrides).createMessage("", HELLO));
  expect(result.error).toBeUndefined();
  expect(result.text).toBe("ok");
  const request = server.requests.at(-1);
  if (!request) throw new Error("no request reached the server");
  return request;
}

/** ~/.aws/credentials and ~/.aws/config in the test's HOME, named by the variables too. */
function writeAwsFiles(credentials: string, config = ""): void {
  mkdirSync(join(home, ".aws"), { recursive: true });
  writeFileSync(join(home, ".aws", "credentials"), credentials);
  writeFileSync(join(home, ".aws", "config"), config);
  process.env.AWS_SHARED_CREDENTIALS_FILE = join(home, ".aws", "credentials");
  process.env.AWS_CONFIG_FILE = join(home, ".aws", "config");
}

interface Authorization {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

function parseAuthorization(header: string | undefined): Authorization {
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(header ?? "");
  if (!match) throw new Error(`not a SigV4 authorization header: ${header}`);
  const [, accessKeyId = "", date = "", region = "", service = "", signedHeaders = "", signature = ""] = match;
  return { accessKeyId, date, region, service, signedHeaders: signedHeaders.split(";"), signature };
}

/** RFC 3986 escaping, as SigV4 wants for each path segment. */
function uriEscape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text, "utf8").digest();
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/**
 * Recomputes the SigV4 signature of a recorded request with `secret`, per AWS's "Create a signed
 * AWS API request": canonical request, string to sign, the derived key. Bedrock is not S3, so each
 * path segment is escaped once more than on the wire.
 */
function expectSignedWith(request: RecordedRequest, keys: { id: string; secret: string; token?: string }, region: string): void {
  const auth = parseAuthorization(request.headers.authorization);
  expect(auth).toMatchObject({ accessKeyId: keys.id, region, service: "bedrock" });
  expect(request.headers["x-amz-security-token"]).toBe(keys.token);
  const amzDate = request.headers["x-amz-date"] ?? "";
  expect(amzDate.slice(0, 8)).toBe(auth.date);
  expect(request.headers["x-amz-content-sha256"]).toBe(sha256(JSON.stringify(request.body)));
  expect(auth.signedHeaders).toEqual(expect.arrayContaining(["host", "x-amz-date", "x-amz-content-sha256", "content-type"]));
  const canonicalHeaders = auth.signedHeaders.map((name) => `${name}:${(request.headers[name] ?? "").trim().replace(/\s+/g, " ")}\n`).join("");
  const canonicalPath = request.path.split("/").map(uriEscape).join("/");
  const canonicalRequest = ["POST", canonicalPath, "", canonicalHeaders, auth.signedHeaders.join(";"), request.headers["x-amz-content-sha256"]].join("\n");
  const scope = `${auth.date}/${region}/bedrock/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${keys.secret}`, auth.date), region), "bedrock"), "aws4_request");
  expect(createHmac("sha256", key).update(stringToSign, "utf8").digest("hex")).toBe(auth.signature);
}

function expectNoSecretIn(error: ApiError): void {
  for (const secret of SECRETS) expect(error.message).not.toContain(secret);
}

describe("the request", () => {
  it.each([
    ["global.anthropic.claude-sonnet-5-5", "/model/global.anthropic.claude-sonnet-5-5/invoke-with-response-stream"],
    ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", "/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke-with-response-stream"],
    // An ARN's slash would split the path: it is percent-encoded (its colons may stay, as RFC 3986 allows).
    [
      "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-5-5",
      "/model/arn:aws:bedrock:us-east-1:123456789012:inference-profile%2Fus.anthropic.claude-sonnet-5-5/invoke-with-response-stream",
    ],
  ])("posts %s to its own path", async (modelId, path) => {
    const request = await signedRequest({ apiKey: API_KEY, modelId });
    expect(request.protocol).toBe("bedrock");
    expect(request.path).toBe(path);
  });

  it("sends the Anthropic body with the SDK's anthropic_version and neither model nor stream", async () => {
    const request = await signedRequest({ apiKey: API_KEY });
    expect(request.body).not.toHaveProperty("model");
    expect(request.body).not.toHaveProperty("stream");
    // @anthropic-ai/bedrock-sdk 1.2 copies its API version (the anthropic-version header, "2026-10-21"),
    // where older SDKs sent "bedrock-2023-05-31"; either is a dated version.
    expect(request.body.anthropic_version).toMatch(/^(?:bedrock-)?\d{4}-\d{2}-\d{2}$/);
    expect(request.headers).not.toHaveProperty("anthropic-version");
    expect(request.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral" } }] }]);
    expect(request.body.max_tokens).toBeGreaterThan(0);
  });

  it("keeps a base URL's path, for a VPC endpoint or a proxy", async () => {
    const request = await signedRequest({ apiKey: API_KEY, baseUrl: `${server.url}/bedrock-proxy` });
    expect(request.path).toBe("/bedrock-proxy/model/global.anthropic.claude-sonnet-5-5/invoke-with-response-stream");
  });

  it("without a base URL goes to bedrock-runtime of the configured region, whatever ANTHROPIC_BEDROCK_BASE_URL says", async () => {
    process.env.ANTHROPIC_BEDROCK_BASE_URL = server.url;
    process.env.AWS_REGION = "ap-south-1";
    const urls: string[] = [];
    const realFetch = globalThis.fetch;
    // The SDK takes fetch when the client is built: nothing leaves the machine.
    globalThis.fetch = (input) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return Promise.reject(new TypeError("fetch failed", { cause: new Error("no network in tests") }));
    };
    try {
      const handler = buildApiHandler({ provider: "bedrock", apiKey: API_KEY, awsRegion: "eu-central-1" });
      expectApiError(await drain(handler.createMessage("", HELLO)), "connection_lost");
      const noRegion = buildApiHandler({ provider: "bedrock", apiKey: API_KEY });
      expectApiError(await drain(noRegion.createMessage("", HELLO)), "connection_lost");
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(urls).toEqual([
      "https://bedrock-runtime.eu-central-1.amazonaws.com/model/global.anthropic.claude-sonnet-5-5/invoke-with-response-stream",
      // The region setting's default, not AWS_REGION (the CLI maps that variable into the setting).
      "https://bedrock-runtime.us-east-1.amazonaws.com/model/global.anthropic.claude-sonnet-5-5/invoke-with-response-stream",
    ]);
    expect(server.requests).toHaveLength(0);
  });
});

describe("which credentials sign", () => {
  it("the environment's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, for the configured region", async () => {
    process.env.AWS_ACCESS_KEY_ID = ENV_KEYS.id;
    process.env.AWS_SECRET_ACCESS_KEY = ENV_KEYS.secret;
    process.env.AWS_SESSION_TOKEN = ENV_KEYS.token;
    const request = await signedRequest();
    expectSignedWith(request, ENV_KEYS, "eu-west-3");
    expect(request.headers.authorization).not.toContain(ENV_KEYS.secret);
  });

  it("the default profile of ~/.aws/credentials, with no keys in the environment", async () => {
    writeAwsFiles(`[default]\naws_access_key_id = ${FILE_KEYS.id}\naws_secret_access_key = ${FILE_KEYS.secret}\n`, "[default]\nregion = us-east-1\n");
    const request = await signedRequest();
    expectSignedWith(request, FILE_KEYS, "eu-west-3");
  });

  it("the profile the AWS profile setting names, over the default profile and the environment's keys", async () => {
    writeAwsFiles(
      `[default]\naws_access_key_id = ${FILE_KEYS.id}\naws_secret_access_key = ${FILE_KEYS.secret}\n`,
      `[profile work]\naws_access_key_id = ${WORK_KEYS.id}\naws_secret_access_key = ${WORK_KEYS.secret}\naws_session_token = ${WORK_KEYS.token}\n`,
    );
    process.env.AWS_ACCESS_KEY_ID = ENV_KEYS.id;
    process.env.AWS_SECRET_ACCESS_KEY = ENV_KEYS.secret;
    const request = await signedRequest({ awsProfile: "work", awsRegion: "us-west-2" });
    expectSignedWith(request, WORK_KEYS, "us-west-2");
  });

  it("a profile's keys are read once per handler, and a new handler reads the files anew", async () => {
    const profile = (keys: { id: string; secret: string }) => `[work]\naws_access_key_id = ${keys.id}\naws_secret_access_key = ${keys.secret}\n`;
    writeAwsFiles(profile(WORK_KEYS));
    const handler = bedrock({ awsProfile: "work" });
    server.enqueue({ text: "one" }, { text: "two" }, { text: "three" });
    await drain(handler.createMessage("", HELLO));
    // As `aws configure --profile work` would rewrite it.
    writeAwsFiles(profile(FILE_KEYS));
    await drain(handler.createMessage("", HELLO));
    await drain(bedrock({ awsProfile: "work" }).createMessage("", HELLO));
    expect(server.requests.map((r) => parseAuthorization(r.headers.authorization).accessKeyId)).toEqual([WORK_KEYS.id, WORK_KEYS.id, FILE_KEYS.id]);
  });

  it("a Bedrock API key as a bearer token, unsigned, even with AWS keys in the environment", async () => {
    process.env.AWS_ACCESS_KEY_ID = ENV_KEYS.id;
    process.env.AWS_SECRET_ACCESS_KEY = ENV_KEYS.secret;
    const request = await signedRequest({ apiKey: API_KEY });
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.headers).not.toHaveProperty("x-amz-date");
    expect(request.headers).not.toHaveProperty("x-amz-security-token");
  });

  it("not AWS_BEARER_TOKEN_BEDROCK behind the settings' back: without the key setting the chain signs", async () => {
    process.env.AWS_BEARER_TOKEN_BEDROCK = API_KEY;
    process.env.AWS_ACCESS_KEY_ID = ENV_KEYS.id;
    process.env.AWS_SECRET_ACCESS_KEY = ENV_KEYS.secret;
    const request = await signedRequest();
    expectSignedWith(request, { id: ENV_KEYS.id, secret: ENV_KEYS.secret }, "eu-west-3");
  });

  it("nothing at all: a clear auth error naming what to set, before any request", async () => {
    server.enqueue({ text: "never sent" });
    const started = performance.now();
    const error = expectApiError(await drain(bedrock().createMessage("", HELLO)), "auth");
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(error.message).toMatch(/^AWS Bedrock: no AWS credentials found/);
    for (const named of ["AWS_BEARER_TOKEN_BEDROCK", "AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "aws sso login"]) {
      expect(error.message).toContain(named);
    }
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it("a profile that does not exist: an auth error naming it, before any request", async () => {
    writeAwsFiles(`[default]\naws_access_key_id = ${FILE_KEYS.id}\naws_secret_access_key = ${FILE_KEYS.secret}\n`);
    const error = expectApiError(await drain(bedrock({ awsProfile: "staging" }).createMessage("", HELLO)), "auth");
    expect(error.message).toContain('the AWS profile "staging" was not found');
    expect(error.message).toContain("aws configure --profile staging");
    expectNoSecretIn(error);
    expect(server.requests).toHaveLength(0);
  });

  it("an SSO profile whose session expired: an auth error saying to run aws sso login for it", async () => {
    writeAwsFiles(
      "",
      [
        "[profile sso-dev]",
        "sso_session = corp",
        "sso_account_id = 123456789012",
        "sso_role_name = Developer",
        "[sso-session corp]",
        "sso_start_url = https://corp.awsapps.com/start",
        "sso_region = us-east-1",
        "",
      ].join("\n"),
    );
    // The token `aws sso login` left, an hour past its expiry (the cache file is named by the session's SHA-1).
    const cache = join(home, ".aws", "sso", "cache");
    mkdirSync(cache, { recursive: true });
    const expired = { startUrl: "https://corp.awsapps.com/start", region: "us-east-1", accessToken: "expired-sso-access-token", expiresAt: new Date(Date.now() - 3_600_000).toISOString() };
    writeFileSync(join(cache, `${createHash("sha1").update("corp").digest("hex")}.json`), JSON.stringify(expired));
    const error = expectApiError(await drain(bedrock({ awsProfile: "sso-dev" }).createMessage("", HELLO)), "auth");
    expect(error.message).toContain('the SSO session of the AWS profile "sso-dev" has expired');
    expect(error.message).toContain("aws sso login --profile sso-dev");
    expect(error.message).not.toContain("expired-sso-access-token");
    expect(server.requests).toHaveLength(0);
  });

  it("puts no secret in the errors of a refused request", async () => {
    process.env.AWS_ACCESS_KEY_ID = ENV_KEYS.id;
    process.env.AWS_SECRET_ACCESS_KEY = ENV_KEYS.secret;
    process.env.AWS_SESSION_TOKEN = ENV_KEYS.token;
    server.enqueue({ kind: "fault", fault: "auth" }, { kind: "fault", fault: "bad_request" }, { kind: "fault", fault: "auth" });
    const signed = expectApiError(await drain(bedrock().createMessage("", HELLO)), "auth");
    expect(signed.status).toBe(403);
    expect(signed.message).toContain("The security token included in the request is invalid.");
    expectNoSecretIn(signed);
    expectNoSecretIn(expectApiError(await drain(bedrock().createMessage("", HELLO)), "bad_request"));
    expectNoSecretIn(expectApiError(await drain(bedrock({ apiKey: API_KEY }).createMessage("", HELLO)), "auth"));
  });
});

/** A server of the test's own that answers every request with `answer`, for what the script cannot say. */
async function rawBedrock(answer: (res: ServerResponse, req: IncomingMessage) => void | Promise<void>): Promise<{ url: string; server: Server; paths: string[] }> {
  const paths: string[] = [];
  const raw = createServer((req, res) => {
    paths.push(req.url ?? "");
    req.resume();
    req.on("end", () => void answer(res, req));
  });
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`, server: raw, paths };
}

async function failureFrom(answer: (res: ServerResponse) => void | Promise<void>, overrides: Partial<ApiConfiguration> = {}): Promise<ApiError | undefined> {
  const raw = await rawBedrock(answer);
  try {
    const result = await drain(bedrock({ apiKey: API_KEY, baseUrl: raw.url, ...overrides }).createMessage("", HELLO));
    return result.error as ApiError | undefined;
  } finally {
    raw.server.closeAllConnections();
    await new Promise((resolve) => raw.server.close(resolve));
  }
}

/** The first events of an answer, then an exception frame. */
function streamThenException(type: string, message: string) {
  return (res: ServerResponse) => {
    const frames = new EventStreamSink(res);
    frames.open();
    frames.send({ type: "message_start", message: { id: "msg_bdrk_01", type: "message", role: "assistant", model: "claude", content: [], stop_reason: null, usage: { input_tokens: 5, output_tokens: 1 } } });
    frames.send({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    frames.send({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "partial" } });
    frames.exception(type, message);
    frames.end();
  };
}

describe("Bedrock's errors", () => {
  it("are the Anthropic SDK's own APIError classes, so the shared classification applies", async () => {
    server.enqueue({ kind: "fault", fault: "rate_limit" });
    const error = expectApiError(await drain(bedrock({ apiKey: API_KEY }).createMessage("", HELLO)), "rate_limited");
    expect(error.cause).toBeInstanceOf(AnthropicSdk.RateLimitError);
    expect(error.message).toContain("ThrottlingException");
    // Bedrock sends no retry-after: the Task's backoff decides.
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(error.requestId).toMatch(/^req_[0-9a-f-]{36}$/);
  });

  it.each([
    ["The provided model identifier is invalid.", "anthropic.claude-sonnet-5-5"],
    [
      "Invocation of model ID anthropic.claude-sonnet-5-5 with on-demand throughput isn’t supported. Retry your request with the ID or ARN of an inference profile that contains this model.",
      "anthropic.claude-sonnet-5-5",
    ],
  ])("a model the region does not serve on demand (%s) -> bad_request naming inference profiles", async (message, modelId) => {
    const error = await failureFrom((res) => sendBedrockError(res, { status: 400, exception: "ValidationException", message }), { modelId });
    expect(error?.kind).toBe("bad_request");
    expect(error?.status).toBe(400);
    expect(error?.message).toContain(message);
    expect(error?.message).toContain(`"${modelId}" is not served on demand in eu-west-3`);
    expect(error?.message).toContain("global.anthropic.claude-sonnet-5-5");
    expect(error?.message).toContain("us.anthropic.claude-sonnet-5-5");
  });

  it.each([
    [403, "AccessDeniedException", "You don't have access to the model with the specified model ID.", { message: "You don't have access to the model with the specified model ID." }],
    [403, "ExpiredTokenException", "The security token included in the request is expired", { message: "The security token included in the request is expired" }],
    // An API key Bedrock does not know: its body says "Message".
    [403, "AccessDeniedException", "Authentication failed: Please make sure your API Key is valid.", { Message: "Authentication failed: Please make sure your API Key is valid." }],
  ])("HTTP %i %s -> auth, with Bedrock's words", async (status, exception, message, body) => {
    const error = await failureFrom((res) => sendBedrockError(res, { status, exception, message }, body));
    expect(error?.kind).toBe("auth");
    expect(error?.status).toBe(status);
    expect(error?.message).toContain(message);
    if (exception === "ExpiredTokenException") expect(error?.message).toContain("aws sso login");
    expect(error?.retryable).toBe(false);
  });

  it.each([
    ["throttlingException", "Too many requests, please wait before trying again.", "rate_limited"],
    ["serviceUnavailableException", "Bedrock is unable to process your request.", "overloaded"],
    ["internalServerException", "The system encountered an unexpected error during processing. Try your request again.", "server_error"],
    ["modelStreamErrorException", "The model returned the following errors: Overloaded", "server_error"],
    ["modelStreamErrorException", "The model returned the following errors: Input is too long for requested model.", "context_window_exceeded"],
    ["modelTimeoutException", "Model has timed out in processing the request.", "server_error"],
    ["validationException", "Input is too long for requested model.", "context_window_exceeded"],
    ["validationException", "messages.1.content: tool_use ids must be unique", "bad_request"],
  ])("an exception frame %s mid-stream (%s) -> %s", async (type, message, kind) => {
    const error = await failureFrom(streamThenException(type, message));
    expect(error?.kind).toBe(kind);
    expect(error?.status).toBeUndefined();
    expect(error?.message).toContain(message);
    expect(error?.requestId).toMatch(/^req_/);
  });

  it("frames cut anywhere across TCP writes still decode", async () => {
    const raw = await rawBedrock(async (res) => {
      const frames = new EventStreamSink(res);
      frames.open();
      const bytes = Buffer.concat(
        [
          { type: "message_start", message: { id: "msg_bdrk_02", type: "message", role: "assistant", model: "claude", content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 1 } } },
          { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
          { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "split " } },
          { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "frames" } },
          { type: "content_block_stop", index: 0 },
          { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 2 } },
          { type: "message_stop" },
        ].map((event) => chunkFrame(event)),
      );
      // Pieces of 7 bytes: preludes, headers and payloads all split.
      for (let at = 0; at < bytes.length; at += 7) {
        frames.write(bytes.subarray(at, at + 7));
        await new Promise((resolve) => setImmediate(resolve));
      }
      frames.end();
    });
    try {
      const result = await drain(bedrock({ apiKey: API_KEY, baseUrl: raw.url }).createMessage("", HELLO));
      expect(result.error).toBeUndefined();
      expect(result.text).toBe("split frames");
      expect(result.chunks.at(-1)).toEqual({ type: "stop", reason: "end_turn" });
    } finally {
      raw.server.closeAllConnections();
      await new Promise((resolve) => raw.server.close(resolve));
    }
  });
});

describe("the test server's framing", () => {
  /** Checks one message of the AWS event stream encoding by its specification, not by the codec that wrote it. */
  function readFrame(frame: Uint8Array): { headers: Record<string, string>; payload: string } {
    const bytes = Buffer.from(frame);
    const total = bytes.readUInt32BE(0);
    const headersLength = bytes.readUInt32BE(4);
    expect(total).toBe(bytes.length);
    expect(bytes.readUInt32BE(8)).toBe(crc32(bytes.subarray(0, 8)));
    expect(bytes.readUInt32BE(total - 4)).toBe(crc32(bytes.subarray(0, total - 4)));
    const headers: Record<string, string> = {};
    for (let at = 12; at < 12 + headersLength; ) {
      const nameLength = bytes.readUInt8(at);
      const name = bytes.toString("utf8", at + 1, at + 1 + nameLength);
      at += 1 + nameLength;
      expect(bytes.readUInt8(at)).toBe(7); // string
      const valueLength = bytes.readUInt16BE(at + 1);
      headers[name] = bytes.toString("utf8", at + 3, at + 3 + valueLength);
      at += 3 + valueLength;
    }
    return { headers, payload: bytes.toString("utf8", 12 + headersLength, total - 4) };
  }

  it("sends chunks and exceptions as Bedrock frames them", () => {
    const chunk = readFrame(chunkFrame({ type: "message_stop" }));
    expect(chunk.headers).toEqual({ ":event-type": "chunk", ":content-type": "application/json", ":message-type": "event" });
    const payload = JSON.parse(chunk.payload) as { bytes: string; p: string };
    expect(JSON.parse(Buffer.from(payload.bytes, "base64").toString("utf8"))).toEqual({ type: "message_stop" });
    const exception = readFrame(exceptionFrame("throttlingException", "Too many requests, please wait before trying again."));
    expect(exception.headers).toEqual({ ":exception-type": "throttlingException", ":content-type": "application/json", ":message-type": "exception" });
    expect(JSON.parse(exception.payload)).toEqual({ message: "Too many requests, please wait before trying again." });
  });

  it("names HTTP errors with x-amzn-errortype and says no retry-after", async () => {
    server.enqueue({ kind: "fault", fault: "rate_limit", retryAfter: 7 });
    const response = await fetch(`${server.url}/model/global.anthropic.claude-sonnet-5-5/invoke-with-response-stream`, { method: "POST", body: "{}" });
    expect(response.status).toBe(BEDROCK_FAULTS.rate_limit.status);
    expect(response.headers.get("x-amzn-errortype")).toMatch(/^ThrottlingException:/);
    expect(response.headers.get("retry-after")).toBeNull();
    expect(await response.json()).toEqual({ message: BEDROCK_FAULTS.rate_limit.message });
  });
});
