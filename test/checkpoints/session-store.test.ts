/**
 * The checkpoint store from the panel's side: its size is measured on request, deleting a task
 * deletes its checkpoints (the last task takes the shadow repository with it), and "Delete all
 * checkpoints" empties the store. Real session, real git store, scripted model.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { gitCheckpoints } from "../../src/core/checkpoints/checkpoint-service";
import { MemorySecretStore, MemorySettingsStore } from "../../src/core/controller/stores";
import { WebviewSession } from "../../src/core/controller/webview-session";
import { NodeHost } from "../../src/host/node/node-host";
import type { ToWebviewMessage } from "../../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server";
import { nameRoots } from "../../src/core/util/workspace-roots";

let server: ScriptedModelServer;
let workspace: string;
let storage: string;
let session: WebviewSession;
let posted: ToWebviewMessage[];

beforeEach(async () => {
  server = await startScriptedModelServer();
  workspace = await mkdtemp(join(tmpdir(), "tandem-ckpt-session-ws-"));
  storage = await mkdtemp(join(tmpdir(), "tandem-ckpt-session-store-"));
  posted = [];
  const secrets = new MemorySecretStore();
  await secrets.setApiKey("anthropic", "key");
  session = new WebviewSession({
    post: (message) => posted.push(structuredClone(message)),
    host: new NodeHost(workspace),
    settings: new MemorySettingsStore({ ...DEFAULT_AGENT_SETTINGS, yolo: true }, { provider: "anthropic", baseUrl: server.anthropicBaseUrl, modelId: "claude-sonnet-4-6" }),
    secrets,
    storageRoot: storage,
    checkpoints: gitCheckpoints(storage, () => nameRoots([{ path: workspace }])),
    openFile: async () => {},
    controllerOptions: { retry: { baseDelayMs: 5, maxDelayMs: 10 }, partialUpdateIntervalMs: 5 },
  });
});

afterEach(async () => {
  await session.dispose();
  await server.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(storage, { recursive: true, force: true });
});

const measured = async (): Promise<number> => {
  await session.handle({ type: "checkpointStore", action: "measure" });
  const reply = posted.filter((m) => m.type === "checkpointStore").at(-1);
  if (reply?.type !== "checkpointStore") throw new Error("no checkpointStore reply");
  return reply.bytes;
};

async function taskWithEdit(): Promise<string> {
  server.enqueue({ text: "<write_to_file>\n<path>a.txt</path>\n<content>\nhi\n</content>\n</write_to_file>" }, { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" });
  await session.newTask("Write a.txt");
  const id = session.controller.currentTask?.taskId ?? "";
  const deadline = Date.now() + 10_000;
  while (session.controller.openQuestion?.kind !== "completion_result") {
    if (Date.now() > deadline) throw new Error("no result in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return id;
}

it("measures the store, deletes a task's checkpoints with it, and deletes them all on request", async () => {
  expect(await measured()).toBe(0);
  const id = await taskWithEdit();
  await session.handle({ type: "clearTask" });
  const withTask = await measured();
  expect(withTask).toBeGreaterThan(0);
  await session.handle({ type: "deleteTask", id });
  // It was the workspace's only task: its shadow repository went with it (empty folders stay).
  expect(await measured()).toBeLessThan(Math.min(withTask / 4, 16_384));

  await taskWithEdit();
  await session.handle({ type: "clearTask" });
  expect(await measured()).toBeGreaterThan(0);
  await session.handle({ type: "checkpointStore", action: "clean" });
  expect(await measured()).toBe(0);
  expect(posted.filter((m) => m.type === "notice" && m.level === "error")).toEqual([]);
});
