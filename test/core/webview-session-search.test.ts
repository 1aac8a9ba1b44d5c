/**
 * The @-menu's request through the panel's session, without an editor: `searchWorkspace` is
 * answered with `workspaceResults` of the same id, ignore rules applied; bad input is a notice.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { WebviewSession } from "../../src/core/controller/webview-session";
import type { FromWebviewMessage, ToWebviewMessage } from "../../src/shared/protocol";
import { openSession, type SessionHarness } from "../support/session-harness";

let harness: SessionHarness;
let posted: ToWebviewMessage[];
let session: WebviewSession;

beforeEach(async () => {
  harness = await openSession({ name: "search" });
  const { workspace } = harness;
  ({ posted, session } = harness);
  await mkdir(join(workspace, "src"));
  await writeFile(join(workspace, "src", "app.ts"), "");
  await writeFile(join(workspace, "src", "secret.pem"), "KEY");
  await writeFile(join(workspace, "src", "skip.ts"), "");
  await writeFile(join(workspace, ".tandemignore"), "src/skip.ts\n");
});

afterEach(() => harness.dispose());

it("answers a search with the matches under its id, ignored and secret files left out", async () => {
  await session.handle({ type: "searchWorkspace", query: "src", requestId: 7 });
  const answer = posted.find((m) => m.type === "workspaceResults");
  expect(answer).toEqual({ type: "workspaceResults", requestId: 7, query: "src", results: [{ path: "src", isFolder: true }, { path: "src/app.ts", isFolder: false }] });
});

it("refuses a malformed request with a notice", async () => {
  await session.handle({ type: "searchWorkspace", query: 42, requestId: "x" } as unknown as FromWebviewMessage);
  expect(posted).toEqual([{ type: "notice", level: "error", text: "searchWorkspace needs a query string and a numeric requestId." }]);
});
