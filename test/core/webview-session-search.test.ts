/**
 * The @-menu's request through the panel's session, without an editor: `searchWorkspace` is
 * answered with `workspaceResults` of the same id, ignore rules applied; bad input is a notice.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { MemorySecretStore, MemorySettingsStore } from "../../src/core/controller/stores";
import { WebviewSession } from "../../src/core/controller/webview-session";
import { NodeHost } from "../../src/host/node/node-host";
import type { FromWebviewMessage, ToWebviewMessage } from "../../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";

let workspace: string;
let storage: string;
let posted: ToWebviewMessage[];
let session: WebviewSession;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "tandem-search-ws-"));
  storage = await mkdtemp(join(tmpdir(), "tandem-search-store-"));
  await mkdir(join(workspace, "src"));
  await writeFile(join(workspace, "src", "app.ts"), "");
  await writeFile(join(workspace, "src", "secret.pem"), "KEY");
  await writeFile(join(workspace, "src", "skip.ts"), "");
  await writeFile(join(workspace, ".tandemignore"), "src/skip.ts\n");
  posted = [];
  session = new WebviewSession({
    post: (message) => posted.push(structuredClone(message)),
    host: new NodeHost(workspace),
    settings: new MemorySettingsStore({ ...DEFAULT_AGENT_SETTINGS }, { provider: "anthropic", modelId: "claude-sonnet-4-6" }),
    secrets: new MemorySecretStore(),
    storageRoot: storage,
    openFile: async () => {},
  });
});

afterEach(async () => {
  await session.dispose();
  await rm(workspace, { recursive: true, force: true });
  await rm(storage, { recursive: true, force: true });
});

it("answers a search with the matches under its id, ignored and secret files left out", async () => {
  await session.handle({ type: "searchWorkspace", query: "src", requestId: 7 });
  const answer = posted.find((m) => m.type === "workspaceResults");
  expect(answer).toEqual({ type: "workspaceResults", requestId: 7, query: "src", results: [{ path: "src", isFolder: true }, { path: "src/app.ts", isFolder: false }] });
});

it("refuses a malformed request with a notice", async () => {
  await session.handle({ type: "searchWorkspace", query: 42, requestId: "x" } as unknown as FromWebviewMessage);
  expect(posted).toEqual([{ type: "notice", level: "error", text: "searchWorkspace needs a query string and a numeric requestId." }]);
});
