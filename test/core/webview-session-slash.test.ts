/**
 * The `/` menu's request through the panel's session, without an editor: `slashCommands` is
 * answered with the built-ins, then the workspace's and the global folder's workflows (at
 * `<storage>/workflows/`), ignored ones left out.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { MemorySecretStore, MemorySettingsStore } from "../../src/core/controller/stores";
import { WebviewSession } from "../../src/core/controller/webview-session";
import { NodeHost } from "../../src/host/node/node-host";
import type { ToWebviewMessage } from "../../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";

let workspace: string;
let storage: string;
let posted: ToWebviewMessage[];
let session: WebviewSession;

async function put(root: string, name: string, text: string): Promise<void> {
  await mkdir(join(root, name, ".."), { recursive: true });
  await writeFile(join(root, name), text);
}

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "tandem-slash-ws-"));
  storage = await mkdtemp(join(tmpdir(), "tandem-slash-store-"));
  await put(workspace, ".clinerules/workflows/release.md", "Cut the release.");
  await put(workspace, ".clinerules/workflows/hidden.md", "Not offered.");
  await put(workspace, ".tandemignore", ".clinerules/workflows/hidden.md\n");
  await put(storage, "workflows/standup.md", "Write the standup.");
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

it("answers with the built-ins, then the workspace's and the global workflows, the ignored one left out", async () => {
  await session.handle({ type: "slashCommands" });
  const answer = posted.find((m) => m.type === "slashCommands");
  expect(answer?.type === "slashCommands" && answer.commands.map((c) => `${c.kind}:${c.name}`)).toEqual(["builtin:newtask", "builtin:compact", "builtin:newrule", "workflow:release", "workflow:standup"]);
});
