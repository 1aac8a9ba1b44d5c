/**
 * Claude on AWS Bedrock through @anthropic-ai/bedrock-sdk: the Messages wire of the Anthropic
 * handler, which the SDK posts to /model/{modelId}/invoke-with-response-stream, signs with SigV4
 * (or sends a Bedrock API key as a bearer token) and turns from AWS event-stream frames back into
 * Anthropic's events. Only Tandem's settings choose the region, the endpoint and the key: the SDK
 * would otherwise read AWS_REGION, ANTHROPIC_BEDROCK_BASE_URL and AWS_BEARER_TOKEN_BEDROCK itself
 * (the CLI maps those variables into the settings). The AWS credential chain reads what it always
 * reads: the AWS_* keys, the shared files, SSO, the container and instance metadata.
 */
import { AnthropicBedrock } from "@anthropic-ai/bedrock-sdk";
import * as AnthropicSdk from "@anthropic-ai/sdk";
import { createCredentialChain, fromEnv, fromIni, fromNodeProviderChain } from "@aws-sdk/credential-providers";
import { isContextOverflow, retryAfterSeconds } from "../classify-error.js";
import type { ResolvedConfiguration } from "../config.js";
import { ApiError, type ApiErrorKind } from "../errors.js";
import { DEFAULT_MODEL_ID } from "../model-info.js";
import { AnthropicHandler } from "./anthropic.js";

const PROVIDER = "AWS Bedrock";
export const DEFAULT_AWS_REGION = "us-east-1";

type CredentialProvider = ReturnType<typeof fromIni>;
type Credentials = Awaited<ReturnType<CredentialProvider>>;

export class BedrockHandler extends AnthropicHandler {
  constructor(config: ResolvedConfiguration) {
    const region = config.awsRegion ?? DEFAULT_AWS_REGION;
    // One provider per handler, so credentials are fetched once and not per request
    // (the SDK's own default builds its chain anew for every request).
    const credentials = awsCredentials(config.awsProfile);
    const client = new AnthropicBedrock({
      awsRegion: region,
      // Explicit even when it is the default: undefined would let ANTHROPIC_BEDROCK_BASE_URL decide.
      baseURL: config.baseUrl ?? `https://bedrock-runtime.${region}.amazonaws.com`,
      // null, not undefined: undefined reads AWS_BEARER_TOKEN_BEDROCK. Without a key the SDK signs.
      apiKey: config.apiKey ?? null,
      providerChainResolver: () => Promise.resolve(credentials),
      maxRetries: 0,
      ...(config.requestTimeoutMs ? { timeout: config.requestTimeoutMs } : {}),
    });
    super(config, client, PROVIDER);
  }

  protected override classify(error: unknown, aborted: boolean): ApiError {
    const shared = super.classify(error, aborted);
    if (shared.kind === "aborted") return shared;
    return credentialError(error, this.config) ?? bedrockError(error, shared, this.config) ?? shared;
  }
}

/**
 * A named profile is read from the shared files (static keys, SSO, assume-role, credential_process);
 * without one, as the AWS CLI does: the AWS_* keys first (the Node chain would skip them when
 * AWS_PROFILE is set), then the Node chain (the profile of AWS_PROFILE or "default", SSO, web
 * identity, ECS, IMDS). Files are read anew for each handler, so a fresh `aws configure` counts.
 */
function awsCredentials(profile: string | undefined): CredentialProvider {
  if (profile) return remembered(fromIni({ profile, ignoreCache: true }));
  return createCredentialChain(fromEnv(), fromNodeProviderChain({ ignoreCache: true }));
}

/** Keeps what `provider` gave until five minutes before it expires; a failure is not kept. */
function remembered(provider: CredentialProvider): CredentialProvider {
  let pending: Promise<Credentials> | undefined;
  return async (options) => {
    const current = (pending ??= provider(options));
    try {
      const credentials = await current;
      const expiresAt = credentials.expiration?.getTime();
      if (expiresAt !== undefined && expiresAt - Date.now() < 5 * 60_000 && pending === current) pending = undefined;
      return credentials;
    } catch (error) {
      if (pending === current) pending = undefined;
      throw error;
    }
  };
}

/** The credential chain's own errors (@smithy's ProviderError family), by name: packages may be duplicated. */
const PROVIDER_ERROR = /^(?:Credentials|Token)?ProviderError$/;

/**
 * The SDK reports a credential chain that found nothing as a connection error ("Failed to resolve
 * AWS credentials"), which would read "could not connect" and be retried in vain: say what to set.
 */
function credentialError(error: unknown, config: ResolvedConfiguration): ApiError | undefined {
  if (!(error instanceof AnthropicSdk.APIConnectionError)) return undefined;
  const causes = causeChain(error);
  const failure = causes.find((cause) => PROVIDER_ERROR.test(cause.name));
  // STS refusing a role (assume-role profiles) is the account's answer, not the network's.
  const refused = causes.find((cause) => (cause as { $fault?: unknown }).$fault === "client");
  const detail = (failure ?? refused)?.message;
  if (detail === undefined) return undefined;
  const profile = config.awsProfile ?? process.env.AWS_PROFILE ?? "default";
  return new ApiError("auth", `${PROVIDER}: ${credentialAdvice(detail, profile, config.awsProfile !== undefined)}`, { cause: error });
}

function credentialAdvice(detail: string, profile: string, named: boolean): string {
  if (/Could not load credentials from any providers/i.test(detail)) {
    return (
      "no AWS credentials found. Set a Bedrock API key (the API key setting, or AWS_BEARER_TOKEN_BEDROCK), " +
      "an AWS profile (the AWS profile setting, or AWS_PROFILE; made by `aws configure` or `aws sso login`), " +
      "or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY."
    );
  }
  if (/\bSSO\b/i.test(detail) && /expired|aws sso login|not found or is invalid|Cannot refresh/i.test(detail)) {
    return `the SSO session of the AWS profile "${profile}" has expired or was never started: run \`aws sso login --profile ${profile}\`.`;
  }
  if (/Could not resolve credentials using profile|could not be found|was not found/i.test(detail)) {
    return (
      `the AWS profile "${profile}" was not found in ~/.aws/config or ~/.aws/credentials, or holds no credentials ` +
      `(AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE move those files): check the ${named ? "AWS profile setting" : "AWS_PROFILE variable"}, ` +
      `or run \`aws configure --profile ${profile}\`.`
    );
  }
  return `the AWS credentials could not be loaded: ${detail}`;
}

/** Bedrock's exceptions, lower-cased: the stream names them in camelCase, x-amzn-errortype in PascalCase. */
const KIND_BY_EXCEPTION: Readonly<Record<string, ApiErrorKind>> = {
  throttlingexception: "rate_limited",
  serviceunavailableexception: "overloaded",
  modelnotreadyexception: "overloaded",
  internalserverexception: "server_error",
  modelstreamerrorexception: "server_error",
  modeltimeoutexception: "server_error",
  modelerrorexception: "server_error",
  validationexception: "bad_request",
  resourcenotfoundexception: "bad_request",
  accessdeniedexception: "auth",
  unrecognizedclientexception: "auth",
  invalidsignatureexception: "auth",
  incompletesignatureexception: "auth",
  expiredtokenexception: "auth",
};

const PHRASES: Partial<Readonly<Record<ApiErrorKind, string>>> = {
  rate_limited: "rate limit reached",
  overloaded: "the service is overloaded",
  server_error: "server error",
  auth: "the credentials or the account were refused",
  bad_request: "the request was rejected",
  context_window_exceeded: "the conversation is too long for the model's context window",
};

/** Claude on Bedrock does not give Anthropic's "prompt is too long: N tokens" but this. */
const BEDROCK_OVERFLOW = /Input is too long for requested model|too many input tokens/i;

/** A model id the region serves only through an inference profile, or not at all. */
const NEEDS_INFERENCE_PROFILE = /provided model identifier is invalid|on-demand throughput isn.t supported|inference profile/i;

/**
 * Bedrock names its errors in the x-amzn-errortype header (HTTP) or the exception frame's type (in
 * stream, which the SDK passes on as an `error` event), and its request id in x-amzn-requestid.
 */
function bedrockError(error: unknown, shared: ApiError, config: ResolvedConfiguration): ApiError | undefined {
  if (!(error instanceof AnthropicSdk.APIError) || error instanceof AnthropicSdk.APIConnectionError) return undefined;
  const exception = exceptionOf(error);
  const said = messageOf(error);
  const kind = bedrockKind(error.status, exception, said) ?? shared.kind;
  const phrase = PHRASES[kind];
  if (!phrase) return undefined;
  const where = error.status === undefined ? "in stream" : `HTTP ${error.status}`;
  const name = exception ? `${exception.charAt(0).toUpperCase()}${exception.slice(1)}` : undefined;
  const text = [said, name && !said.includes(name) ? `(${name})` : ""].filter(Boolean).join(" ");
  return new ApiError(kind, `${PROVIDER}: ${phrase} (${where})${text ? `: ${text}` : ""}${advice(kind, `${exception ?? ""} ${said}`, config)}`, {
    status: error.status,
    retryAfterSeconds: kind === "rate_limited" || kind === "overloaded" ? retryAfterSeconds(error.headers) : undefined,
    requestId: shared.requestId ?? error.headers?.get("x-amzn-requestid") ?? undefined,
    cause: error,
  });
}

function bedrockKind(status: number | undefined, exception: string | undefined, said: string): ApiErrorKind | undefined {
  const clientSide = status === undefined || status === 400;
  if (clientSide && (BEDROCK_OVERFLOW.test(said) || isContextOverflow({ message: said }))) return "context_window_exceeded";
  return exception === undefined ? undefined : KIND_BY_EXCEPTION[exception.toLowerCase()];
}

/** What the person can do about it, when Bedrock's words alone do not say. */
function advice(kind: ApiErrorKind, said: string, config: ResolvedConfiguration): string {
  if (kind === "bad_request" && NEEDS_INFERENCE_PROFILE.test(said)) return ` ${inferenceProfileHint(config)}`;
  if (kind === "auth" && /expired/i.test(said)) return " Refresh the AWS credentials (`aws sso login`, or a new session token).";
  return "";
}

function inferenceProfileHint(config: ResolvedConfiguration): string {
  const region = config.awsRegion ?? DEFAULT_AWS_REGION;
  const example = (DEFAULT_MODEL_ID.bedrock ?? "global.anthropic.claude-sonnet-5-5").replace(/^global\./, "");
  return (
    `"${config.model.id}" is not served on demand in ${region}: use the id of an inference profile that contains it, ` +
    `such as global.${example} or one with the region's prefix (us.${example}, eu.…, apac.…), or its ARN.`
  );
}

/** "ValidationException" from "ValidationException:http://internal.amazon.com/coral/…", or the stream's type. */
function exceptionOf(error: AnthropicSdk.APIError): string | undefined {
  const header = error.headers?.get("x-amzn-errortype")?.split(":")[0]?.trim();
  if (header) return header;
  const type = typeof error.type === "string" ? error.type : undefined;
  // Anthropic's own error types ("overloaded_error") are not Bedrock's.
  return type && /exception$/i.test(type) ? type : undefined;
}

/** Bedrock's JSON says `message` (an API key refusal says `Message`); an exception in stream, `error.message`. */
function messageOf(error: AnthropicSdk.APIError): string {
  const body = asRecord(error.error);
  const inner = asRecord(body?.["error"]);
  const said = [body?.["message"], body?.["Message"], inner?.["message"]].find((value) => typeof value === "string" && value !== "");
  if (typeof said === "string") return said.trim();
  const status = error.status === undefined ? "" : `${error.status} `;
  const rest = error.message.startsWith(status) ? error.message.slice(status.length) : error.message;
  return rest === "status code (no body)" ? "" : rest.trim();
}

function causeChain(error: Error): Error[] {
  const chain: Error[] = [];
  for (let current: unknown = error.cause; current instanceof Error && chain.length < 6; current = current.cause) chain.push(current);
  return chain;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
}
