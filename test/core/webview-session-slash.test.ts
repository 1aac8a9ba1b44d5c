/**
 * The `/` menu's request through the panel's session, without an editor: `slashCommands` is
 * answered with the built-ins, then the workspace's and the global folder's workflows (at
 * `<storage>/workflows/`), ignored ones left out.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { WebviewSession } from "../../src/core/controller/webview-session";
import type { ToWebviewMessage } from "../../src/shared/protocol";
import { openSession, type SessionHarness } from "../support/session-harness";

let harness: SessionHarness;
let posted: ToWebviewMessage[];
let session: WebviewSession;

async function put(root: string, name: string, text: string): Promise<void> {
  await mkdir(join(root, name, ".."), { recursive: true });
  await writeFile(join(root, name), text);
}

beforeEach(async () => {
  harness = await openSession({ name: "slash" });
  const { workspace, storage } = harness;
  ({ posted, session } = harness);
  await put(workspace, ".clinerules/workflows/release.md", "Cut the release.");
  await put(workspace, ".clinerules/workflows/hidden.md", "Not offered.");
  await put(workspace, ".tandemignore", ".clinerules/workflows/hidden.md\n");
  await put(storage, "workflows/standup.md", "Write the standup.");
});

afterEach(() => harness.dispose());

it("answers with the built-ins, then the workspace's and the global workflows, the ignored one left out", async () => {
  await session.handle({ type: "slashCommands" });
  const answer = posted.find((m) => m.type === "slashCommands");
  expect(answer?.type === "slashCommands" && answer.commands.map((c) => `${c.kind}:${c.name}`)).toEqual(["builtin:newtask", "builtin:compact", "builtin:newrule", "workflow:release", "workflow:standup"]);
});
