/**
 * The metadata server of a Google Cloud machine, the last link of Application Default Credentials:
 * google-auth-library asks it for an access token and the project when GCE_METADATA_HOST names it.
 * Served by the scripted model server, so Vertex tests sign for real with no Google account.
 */
import { mkdtempSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const METADATA_ACCESS_TOKEN = "ya29.scripted-metadata-token";
export const METADATA_PROJECT = "scripted-metadata-project";

const ROUTES: Readonly<Record<string, () => string>> = {
  "/computeMetadata/v1/instance/service-accounts/default/token": () =>
    JSON.stringify({ access_token: METADATA_ACCESS_TOKEN, expires_in: 3599, token_type: "Bearer" }),
  "/computeMetadata/v1/project/project-id": () => METADATA_PROJECT,
  "/computeMetadata/v1/universe/universe-domain": () => "googleapis.com",
  "/computeMetadata/v1/instance/service-accounts/default/email": () => "scripted@scripted-metadata-project.iam.gserviceaccount.com",
};

/** Answers a metadata request (true) or leaves the request to other routes (false). */
export function answerMetadata(req: IncomingMessage, res: ServerResponse, path: string): boolean {
  if (req.method !== "GET" || !path.startsWith("/computeMetadata/")) return false;
  const route = ROUTES[path];
  // The real server refuses requests without this header (it keeps SSRF from reading tokens).
  if (!route || req.headers["metadata-flavor"] !== "Google") {
    res.writeHead(route ? 403 : 404, { "content-type": "text/plain", "metadata-flavor": "Google" });
    res.end(route ? "Missing Metadata-Flavor:Google header." : "not found");
    return true;
  }
  const body = route();
  res.writeHead(200, { "content-type": body.startsWith("{") ? "application/json" : "application/text", "metadata-flavor": "Google" });
  res.end(body);
  return true;
}

/**
 * A metadata server of its own on 127.0.0.1, pointed at by GCE_METADATA_HOST for the rest of the
 * process (with CLOUDSDK_CONFIG on an empty folder and GOOGLE_APPLICATION_CREDENTIALS unset, so
 * the chain reaches it). It does not keep the process alive.
 */
export async function useMetadataServer(): Promise<{ host: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://metadata.invalid").pathname;
    if (!answerMetadata(req, res, path)) {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.GCE_METADATA_HOST = host;
  process.env.METADATA_SERVER_DETECTION = "assume-present";
  process.env.CLOUDSDK_CONFIG = mkdtempSync(join(tmpdir(), "tandem-gcloud-"));
  delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
  return { host, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
