/**
 * Google Vertex AI: Claude through @anthropic-ai/vertex-sdk (the Messages wire, posted to the
 * model's own path and signed with a Google OAuth token), Gemini through the Gemini handler in
 * Vertex mode. Both sign with Application Default Credentials (google-auth-library): the file
 * GOOGLE_APPLICATION_CREDENTIALS names, gcloud's `application_default_credentials.json`, or the
 * metadata server of a Google Cloud machine.
 */
import { AnthropicVertex } from "@anthropic-ai/vertex-sdk";
import { GoogleAuth } from "google-auth-library";
import * as AnthropicSdk from "@anthropic-ai/sdk";
import type { ResolvedConfiguration } from "../config.js";
import { ApiError } from "../errors.js";
import type { ApiHandler } from "../types.js";
import { isGeminiModel } from "../gemini-models.js";
import { AnthropicHandler } from "./anthropic.js";
import { GeminiHandler } from "./gemini.js";

const PROVIDER = "Google Vertex AI";
const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
export const DEFAULT_VERTEX_REGION = "global";

export function vertexHandler(config: ResolvedConfiguration): ApiHandler {
  return isGeminiModel(config.model.id) ? new VertexGeminiHandler(config) : new VertexClaudeHandler(config);
}

/**
 * The Google credentials both kinds of model sign with. A known project spares the library its
 * search for one, which runs `gcloud config config-helper` in a shell (a third of a second).
 */
export function vertexAuth(projectId: string | undefined): GoogleAuth {
  return new GoogleAuth({ scopes: CLOUD_PLATFORM_SCOPE, ...(projectId ? { projectId } : {}) });
}

/** Gemini in Vertex mode: the same credentials, and the same words when there are none. */
class VertexGeminiHandler extends GeminiHandler {
  constructor(config: ResolvedConfiguration) {
    super(config, { vertex: { googleAuthOptions: { scopes: CLOUD_PLATFORM_SCOPE, ...(config.vertexProjectId ? { projectId: config.vertexProjectId } : {}) } } });
  }

  protected override classify(error: unknown, aborted: boolean): ApiError {
    const credentials = credentialProblem(error);
    if (credentials && !aborted) return new ApiError("auth", `${PROVIDER}: ${credentials}`, { cause: error });
    return super.classify(error, aborted);
  }
}

class VertexClaudeHandler extends AnthropicHandler {
  constructor(config: ResolvedConfiguration) {
    const client = new AnthropicVertex({
      region: config.vertexRegion ?? DEFAULT_VERTEX_REGION,
      // Required by the configuration: the metadata server's project never reaches the SDK.
      projectId: config.vertexProjectId ?? null,
      // null, not undefined: the SDK would otherwise read ANTHROPIC_VERTEX_BASE_URL; only Tandem's settings decide.
      baseURL: config.baseUrl ?? null,
      googleAuth: vertexAuth(config.vertexProjectId),
      maxRetries: 0,
      ...(config.requestTimeoutMs ? { timeout: config.requestTimeoutMs } : {}),
    });
    super(config, client, PROVIDER);
  }

  protected override classify(error: unknown, aborted: boolean): ApiError {
    const credentials = credentialProblem(error);
    if (credentials && !aborted) return new ApiError("auth", `${PROVIDER}: ${credentials}`, { cause: error });
    return super.classify(error, aborted);
  }
}

/**
 * What a person should do when no Google token could be had: the SDK wraps that failure as a
 * connection error, which would otherwise read "could not connect" and be retried in vain.
 */
export function credentialProblem(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : "";
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
  if (error instanceof AnthropicSdk.APIConnectionError && /Google OAuth credentials/.test(message)) return adcAdvice(cause);
  if (/Could not load the default credentials|Unable to detect a Project Id/.test(`${message} ${cause}`)) return adcAdvice(cause || message);
  if (/No projectId was given and it could not be resolved/.test(message)) {
    return "no Google Cloud project is set and the credentials name none: set the project in Tandem's settings (CLI: --vertex-project or GOOGLE_CLOUD_PROJECT).";
  }
  return undefined;
}

function adcAdvice(detail: string): string {
  const why = detail.split("\n")[0]?.trim();
  return (
    "no Google credentials were found" +
    (why ? ` (${why})` : "") +
    ": run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS to a service account key file."
  );
}
