/**
 * What only Vertex AI does, through the real @anthropic-ai/vertex-sdk and google-auth-library
 * against the scripted model server: the model's own path, the body Vertex takes, and which link
 * of Application Default Credentials signed the request (a metadata server of the test's own, a
 * key file named by GOOGLE_APPLICATION_CREDENTIALS, gcloud's file, none at all).
 * What every provider does is provider-wire.test.ts.
 */
import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPairSync } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildApiHandler, type ApiConfiguration } from "../../src/api/index.js";
import type { ApiMessage } from "../../src/api/types.js";
import { answerMetadata, METADATA_ACCESS_TOKEN } from "../support/gce-metadata-routes.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { drain, expectApiError } from "./stream-helpers.js";

const HELLO: ApiMessage[] = [{ role: "user", content: "hello" }];
const ENV_NAMES = ["GCE_METADATA_HOST", "METADATA_SERVER_DETECTION", "CLOUDSDK_CONFIG", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"];

let server: ScriptedModelServer;
let metadata: Server;
/** Paths the metadata server was asked for, in order. */
let metadataAsked: string[] = [];
let savedEnv: Record<string, string | undefined>;

beforeAll(async () => {
  metadata = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://metadata.invalid").pathname;
    metadataAsked.push(path);
    if (!answerMetadata(req, res, path)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => metadata.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await new Promise((resolve) => metadata.close(resolve));
});

beforeEach(async () => {
  server = await startScriptedModelServer();
  savedEnv = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
  metadataAsked = [];
  // The chain's last link is the metadata server; an empty gcloud folder keeps the person's own file out.
  for (const name of ENV_NAMES) delete process.env[name];
  process.env.GCE_METADATA_HOST = `127.0.0.1:${(metadata.address() as AddressInfo).port}`;
  process.env.METADATA_SERVER_DETECTION = "assume-present";
  process.env.CLOUDSDK_CONFIG = mkdtempSync(join(tmpdir(), "tandem-gcloud-"));
});

afterEach(async () => {
  await server.close();
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const vertex = (overrides: Partial<ApiConfiguration> = {}) =>
  buildApiHandler({ provider: "vertex", vertexProjectId: "my-project", vertexRegion: "europe-west1", baseUrl: `${server.url}/v1`, modelId: "claude-sonnet-5-5", ...overrides });

/** A service account key as Google issues them (the key is made here, and never reaches Google). */
function serviceAccountFile(folder: string): string {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const file = join(folder, "key.json");
  writeFileSync(
    file,
    JSON.stringify({
      type: "service_account",
      project_id: "key-file-project",
      private_key_id: "abc123",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
      client_email: "tandem@key-file-project.iam.gserviceaccount.com",
      client_id: "1",
      token_uri: "https://oauth2.googleapis.com/token",
    }),
  );
  return file;
}

describe("Claude on Vertex AI", () => {
  it("posts to the model's own path in the project and region, with Vertex's API version in the body and no model there", async () => {
    server.enqueue({ text: "hi" });
    const result = await drain(vertex().createMessage("be brief", HELLO));
    expect(result.error).toBeUndefined();
    const [request] = server.requests;
    expect(request?.protocol).toBe("vertex-anthropic");
    expect(request?.path).toBe("/v1/projects/my-project/locations/europe-west1/publishers/anthropic/models/claude-sonnet-5-5:streamRawPredict");
    // The SDK's own API version, which Vertex reads from the body.
    expect(request?.body).toMatchObject({ anthropic_version: "2026-10-21", stream: true, system: [{ type: "text", text: "be brief" }] });
    expect(request?.body).not.toHaveProperty("model");
    expect(request?.headers["anthropic-version"]).toBeUndefined();
  });

  it("signs with the metadata server's token when no key file is set, and defaults to the global region", async () => {
    server.enqueue({ text: "hi" });
    const result = await drain(vertex({ vertexRegion: undefined }).createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${METADATA_ACCESS_TOKEN}`);
    expect(server.requests[0]?.path).toMatch(/^\/v1\/projects\/my-project\/locations\/global\//);
    expect(metadataAsked).toContain("/computeMetadata/v1/instance/service-accounts/default/token");
  });

  it("refuses to start without a project, saying where to set it", () => {
    expect(() => vertex({ vertexProjectId: " " })).toThrow("Google Vertex AI needs the Google Cloud project (in the CLI: --vertex-project or GOOGLE_CLOUD_PROJECT or ANTHROPIC_VERTEX_PROJECT_ID or GCLOUD_PROJECT).");
  });

  it("uses the key file GOOGLE_APPLICATION_CREDENTIALS names before the metadata server", async () => {
    process.env.GOOGLE_APPLICATION_CREDENTIALS = serviceAccountFile(mkdtempSync(join(tmpdir(), "tandem-sa-")));
    server.enqueue({ text: "never" });
    // The key file's token comes from Google's token endpoint, which this machine cannot reach.
    const error = expectApiError(await drain(vertex().createMessage("", HELLO)), "auth");
    expect(error.message).toMatch(/^Google Vertex AI: no Google credentials were found \(.+\): run `gcloud auth application-default login`/);
    expect(metadataAsked.filter((path) => path.endsWith("/token"))).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("uses gcloud's application default credentials file before the metadata server", async () => {
    const folder = process.env.CLOUDSDK_CONFIG ?? "";
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "application_default_credentials.json"),
      JSON.stringify({ type: "authorized_user", client_id: "id.apps.googleusercontent.com", client_secret: "secret-of-the-client", refresh_token: "1//refresh-token-value" }),
    );
    server.enqueue({ text: "never" });
    const error = expectApiError(await drain(vertex().createMessage("", HELLO)), "auth");
    expect(error.message).not.toMatch(/secret-of-the-client|refresh-token-value/);
    expect(metadataAsked.filter((path) => path.endsWith("/token"))).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("says what to do when no credentials are found anywhere, after no request to the model", async () => {
    process.env.METADATA_SERVER_DETECTION = "none";
    server.enqueue({ text: "never" });
    const error = expectApiError(await drain(vertex().createMessage("", HELLO)), "auth");
    expect(error.message).toMatch(/no Google credentials were found .*gcloud auth application-default login.*GOOGLE_APPLICATION_CREDENTIALS/);
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});
