/**
 * The Plan/Act switch through the panel's protocol: the WebviewSession, the real Controller and
 * Task, the real SDK and the scripted model server. The switch before a task sets the task's mode;
 * the switch while the plan waits carries it on into Act, where the refused edit now runs.
 */
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WebviewSession } from "../../src/core/controller/webview-session";
import type { FromWebviewMessage, ToWebviewMessage } from "../../src/shared/protocol";
import type { RecordedRequest } from "../support/script";
import type { ScriptedModelServer } from "../support/scripted-model-server";
import { openSession, until, type SessionHarness } from "../support/session-harness";

let harness: SessionHarness;
let server: ScriptedModelServer;
let workspace: string;
let posted: ToWebviewMessage[];
let session: WebviewSession;

beforeEach(async () => {
  harness = await openSession({ name: "modes", agent: { yolo: true }, modelId: "claude-sonnet-5-5" });
  ({ server, workspace, posted, session } = harness);
});

afterEach(() => harness.dispose());

const send = (message: FromWebviewMessage) => session.handle(message);
const ofType = <T extends ToWebviewMessage["type"]>(type: T) => posted.filter((m): m is Extract<ToWebviewMessage, { type: T }> => m.type === type);
const call = (tool: string, params: Record<string, string>) => ({ text: `<${tool}>\n${Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join("\n")}\n</${tool}>` });
const writeJs = call("write_to_file", { path: "app.js", content: "\nconsole.log(1);\n" });
const lastUserText = (request: RecordedRequest | undefined) => JSON.stringify((request?.body.messages as unknown[] | undefined)?.at(-1) ?? "");
const systemPrompt = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.system ?? "");


describe("the Plan/Act switch in the panel", () => {
  it("before a task sets the task's mode; while the plan waits, switching to Act carries it on and the refused edit runs", async () => {
    await send({ type: "ready" });
    expect(ofType("state")[0]?.state.mode).toBe("act");
    await send({ type: "setMode", mode: "plan" });
    expect(ofType("modeChanged").map((m) => m.mode)).toEqual(["plan"]);

    server.enqueue(writeJs, call("plan_mode_respond", { response: "PLAN: write app.js", options: '["Go ahead"]' }), writeJs, call("attempt_completion", { result: "Done." }));
    await send({ type: "newTask", text: "Make app.js", images: [] });
    await until(() => session.controller.openQuestion?.kind === "plan_mode_respond");
    expect(await access(join(workspace, "app.js")).then(() => true, () => false)).toBe(false);
    // A page that loads now shows the task's mode.
    await send({ type: "ready" });
    expect(ofType("state").at(-1)?.state.mode).toBe("plan");

    await send({ type: "setMode", mode: "act" });
    await until(() => session.controller.openQuestion?.kind === "completion_result");
    const question = session.controller.openQuestion;
    if (question) await send({ type: "answer", answer: { questionId: question.id, choice: "accept" } });
    expect(await session.controller.waitForTask()).toBe("completed");

    expect(await readFile(join(workspace, "app.js"), "utf8")).toBe("console.log(1);\n");
    const [planning, afterRefusal, acting] = server.requests;
    expect(lastUserText(afterRefusal)).toContain("write_to_file is not available in Plan mode");
    expect(lastUserText(acting)).toContain("[The person switched to Act mode.");
    expect(systemPrompt(planning)).toContain("MODE: PLAN");
    expect(systemPrompt(acting)).toContain("MODE: ACT");
    expect(ofType("modeChanged").at(-1)?.mode).toBe("act");
    // The plan's row stays in the chat, answered by the switch.
    const planRow = session.controller.messages.find((m) => m.type === "ask" && m.ask === "plan_mode_respond");
    expect(planRow).toMatchObject({ text: "PLAN: write app.js", options: ["Go ahead"] });
  });

  it("a resumed task opens in its saved mode, and the panel's switch is told", async () => {
    await send({ type: "setMode", mode: "plan" });
    server.enqueue(call("plan_mode_respond", { response: "PLAN" }));
    await send({ type: "newTask", text: "Plan it", images: [] });
    await until(() => session.controller.openQuestion?.kind === "plan_mode_respond");
    const id = session.controller.currentTask?.taskId ?? "";
    await send({ type: "clearTask" });
    await send({ type: "setMode", mode: "act" });
    posted.length = 0;
    await send({ type: "resumeTask", id });
    expect(ofType("modeChanged").map((m) => m.mode)).toEqual(["plan"]);
    expect(session.controller.mode).toBe("plan");
  });

  it("the command's toggle flips the mode, and a mode the protocol does not know is refused with a notice", async () => {
    session.toggleMode();
    expect(session.controller.mode).toBe("plan");
    session.toggleMode();
    expect(ofType("modeChanged").map((m) => m.mode)).toEqual(["plan", "act"]);
    await send({ type: "setMode", mode: "sideways" as never });
    expect(ofType("notice").at(-1)).toMatchObject({ level: "error", text: expect.stringContaining('Unknown mode "sideways"') });
    expect(session.controller.mode).toBe("act");
  });
});
