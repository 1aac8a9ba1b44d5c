/**
 * The person's checklist edit as the panel sends it: the protocol message through the
 * WebviewSession, the Controller and the Task, into the next request; a bad one comes back as a
 * notice; and a reloaded panel (the webview's own store, fed the posted messages) shows the list.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WebviewSession } from "../../src/core/controller/webview-session";
import type { ToWebviewMessage } from "../../src/shared/protocol";
import { ExtensionStore } from "../../webview-ui/src/state/extension-store";
import { goOn } from "../support/go-on";
import type { ScriptedModelServer } from "../support/scripted-model-server";
import { openSession, until, type SessionHarness } from "../support/session-harness";

let harness: SessionHarness;
let server: ScriptedModelServer;
let workspace: string;
let posted: ToWebviewMessage[];
let session: WebviewSession;

beforeEach(async () => {
  harness = await openSession({ name: "focus" });
  ({ server, workspace, posted, session } = harness);
});

afterEach(() => harness.dispose());


describe("editing the checklist from the panel", () => {
  it("reaches the next request, is refused with a notice when it does not fit, and a reloaded panel shows it", async () => {
    await writeFile(join(workspace, "notes.txt"), "n\n");
    server.enqueue(
      { text: "<read_file>\n<path>notes.txt</path>\n<task_progress>\n- [ ] Read\n- [ ] Write\n</task_progress>\n</read_file>" },
      { text: "<write_to_file>\n<path>out.txt</path>\n<content>\nx\n</content>\n</write_to_file>" },
      { text: "<attempt_completion>\n<result>Done.</result>\n<task_progress>\n- [x] Read\n- [x] Write\n- [x] Check\n</task_progress>\n</attempt_completion>" },
    );
    await session.handle({ type: "newTask", text: "Go", images: [] });
    await until(() => session.controller.openQuestion?.kind === "tool");
    const question = session.controller.openQuestion!;

    await session.handle({ type: "editFocusChain", items: [{ text: "", done: false }] });
    expect(posted.filter((m) => m.type === "notice").at(-1)).toMatchObject({ level: "error", text: "The checklist was not changed: item 1 has no text." });
    const edit = [{ text: "Read", done: true }, { text: "Write", done: false }, { text: "Check", done: false }];
    await session.handle({ type: "editFocusChain", items: edit });
    const page = new ExtensionStore();
    await session.handle({ type: "ready" });
    page.apply(posted.filter((m) => m.type === "state").at(-1)!);
    expect(page.getState().focusChain).toEqual({ items: edit, by: "person" });

    await session.handle(goOn(question));
    await until(() => session.controller.openQuestion?.kind === "completion_result");
    await session.handle(goOn(session.controller.openQuestion!));
    expect(await session.controller.waitForTask()).toBe("completed");
    const next = JSON.stringify(server.requests[2]?.body.messages);
    expect(next).toContain("The person edited the checklist. It is now:\\n- [x] Read\\n- [ ] Write\\n- [ ] Check");
  });
});
