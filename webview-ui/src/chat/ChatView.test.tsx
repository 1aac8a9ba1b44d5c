import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { AskKind } from "../../../src/shared/messages";
import type { AnswerChoice, FromWebviewMessage, QuestionAnswer } from "../../../src/shared/protocol";
import { ASK_KINDS } from "../state/message-kinds";
import { ask, asking, makeState, questionOf, runningWith, say, TASK } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";

const answer = (questionId: number, choice: AnswerChoice, typed: Partial<QuestionAnswer> = {}): FromWebviewMessage => ({
  type: "answer",
  answer: { questionId, choice, ...typed },
});
const clear: FromWebviewMessage = { type: "clearTask" };
const a = (choice: AnswerChoice, typed?: Partial<QuestionAnswer>) => answer(10, choice, typed);

/** Written out by hand (not derived from ask-buttons.ts) so the two check each other. */
const EXPECTED: Record<AskKind, [label: string, sent: FromWebviewMessage[]][]> = {
  tool: [["Approve", [a("approve")]], ["Reject", [a("reject")]]],
  command: [["Run", [a("run")]], ["Reject", [a("reject")]]],
  command_output: [["Proceed While Running", [a("proceed")]], ["Kill Command", [a("kill")]]],
  completion_result: [["Start New Task", [a("accept"), clear]]],
  api_req_failed: [["Retry", [a("retry")]], ["Start New Task", [a("stop"), clear]]],
  mistake_limit_reached: [["Proceed Anyway", [a("proceed")]], ["Start New Task", [a("stop"), clear]]],
  spend_limit_reached: [["Continue Once", [a("proceed")]], ["Raise the Cap", [a("raise")]], ["Stop", [a("stop")]]],
  new_task: [["Start New Task with this context", [a("accept")]], ["Decline", [a("decline")]]],
  resume_task: [["Resume Task", [a("resume")]]],
  followup: [["Option A", [a("reply", { text: "Option A" })]]],
  plan_mode_respond: [["Option A", [a("reply", { text: "Option A" })]], ["Finish with this plan", [a("accept")]]],
};

const messageBox = () => screen.getByRole("textbox", { name: "Message" });
const button = (name: string) => screen.queryByRole("button", { name });
/** A button the panel shows (VS Code's button element names itself a moment after it renders). */
const shown = (name: string) => screen.findByRole("button", { name });

describe("ask buttons", () => {
  const cases = ASK_KINDS.flatMap((kind) => EXPECTED[kind].map(([label, sent]) => [kind, label, sent] as const));

  it.each(cases)("%s: %s sends the right messages", async (kind, label, sent) => {
    const panel = renderPanel(asking(ask(kind, 10, { text: "question", options: ["Option A"] })));
    await userEvent.click(await screen.findByRole("button", { name: label }));
    expect(panel.posted()).toEqual(sent);
    // Answered: the buttons go away until the host's next question.
    expect(button(label)).toBeNull();
  });

  it("shows no buttons while the host asks nothing, whatever the last row is", () => {
    renderPanel(runningWith(ask("tool", 10)));
    expect(button("Approve")).toBeNull();
    expect(messageBox()).toHaveAttribute("placeholder", expect.stringMatching(/^Tandem is working/));
  });

  it("sends Reject with the input box's text as feedback and empties the box", async () => {
    const panel = renderPanel(asking(ask("command", 10, { text: "rm -rf build" })));
    await userEvent.type(messageBox(), "use the clean script instead");
    await userEvent.click(screen.getByRole("button", { name: "Reject" }));
    expect(panel.posted()).toEqual([a("reject", { text: "use the clean script instead", images: [] })]);
    expect(messageBox()).toHaveValue("");
  });

  it("answers an open question with a typed message", async () => {
    const panel = renderPanel(asking(ask("followup", 10, { text: "Which file?" })));
    await userEvent.type(messageBox(), "the second one{Enter}");
    expect(panel.posted()).toEqual([a("reply", { text: "the second one", images: [] })]);
  });
});

describe("the open question is the host's", () => {
  const running = ask("command_output", 20, { text: "npm run dev is still running" });
  const command = say("command", 10, { text: "npm run dev" });

  it("keeps a running command's Proceed and Kill while its output streams, and typing answers that question", async () => {
    const panel = renderPanel(runningWith(command, say("command_output", 11, { text: "ready on :3000" })));
    panel.send({ type: "questionChanged", question: questionOf(running) });
    panel.send({ type: "messageAdded", message: running });
    panel.send({ type: "messageAdded", message: say("command_output", 21, { text: "GET / 200" }) });
    panel.send({ type: "messageAdded", message: say("command_output", 22, { text: "GET /app.js 200" }) });
    expect(screen.getByText("GET /app.js 200")).toBeInTheDocument();
    expect(await shown("Proceed While Running")).toBeInTheDocument();
    expect(await shown("Kill Command")).toBeInTheDocument();
    await userEvent.type(messageBox(), "leave it running and add a test{Enter}");
    expect(panel.posted()).toEqual([answer(20, "reply", { text: "leave it running and add a test", images: [] })]);
    expect(screen.queryByLabelText("Queued messages")).toBeNull();
  });

  it("shows the question a reloaded panel's state carries, with rows after its own", async () => {
    renderPanel({ ...runningWith(command, running, say("command_output", 21, { text: "GET / 200" })), question: questionOf(running) });
    expect(await shown("Proceed While Running")).toBeInTheDocument();
    expect(await shown("Kill Command")).toBeInTheDocument();
  });

  it("drops the buttons when the host says the question closed, and queues what is typed then", async () => {
    const panel = renderPanel(asking(command, running));
    expect(await shown("Kill Command")).toBeInTheDocument();
    // The command ended first: the host takes the question back.
    panel.send({ type: "questionChanged", question: undefined });
    panel.send({ type: "messagesRemoved", timestamps: [20] });
    expect(button("Proceed While Running")).toBeNull();
    expect(button("Kill Command")).toBeNull();
    await userEvent.type(messageBox(), "then run the tests{Enter}");
    expect(panel.posted()).toEqual([]);
    expect(within(screen.getByLabelText("Queued messages")).getByText("then run the tests")).toBeInTheDocument();
  });

  it("puts a refused answer's text back in the box and says why", async () => {
    const panel = renderPanel(asking(command, running));
    await userEvent.type(messageBox(), "also run the linter{Enter}");
    const [sent] = panel.posted();
    expect(messageBox()).toHaveValue("");
    // The command ended while the answer was on its way: the host closed the question and refuses it.
    panel.send({ type: "questionChanged", question: undefined });
    panel.send({ type: "answerRefused", answer: sent?.type === "answer" ? sent.answer : expect.fail("no answer sent"), reason: "That question was already closed." });
    expect(messageBox()).toHaveValue("also run the linter");
    expect(screen.getByText("That question was already closed. What you wrote is back in the input box.")).toBeInTheDocument();
    expect(panel.posted()).toHaveLength(1);
  });
});

describe("the input box", () => {
  it("says ready when mounted", () => {
    const panel = renderPanel();
    expect(panel.api.posted[0]).toEqual({ type: "ready" });
  });

  it("sends on Enter and breaks the line on Shift+Enter", async () => {
    const panel = renderPanel(makeState());
    await userEvent.type(messageBox(), "line one{Shift>}{Enter}{/Shift}line two");
    expect(messageBox()).toHaveValue("line one\nline two");
    expect(panel.posted()).toEqual([]);
    await userEvent.keyboard("{Enter}");
    expect(panel.posted()).toEqual([{ type: "newTask", text: "line one\nline two", images: [] }]);
    expect(messageBox()).toHaveValue("");
  });

  it("sends nothing for an empty box", async () => {
    const panel = renderPanel(makeState());
    await userEvent.type(messageBox(), "   {Enter}");
    expect(panel.posted()).toEqual([]);
  });

  it("offers Cancel while the task runs", async () => {
    const panel = renderPanel(runningWith(say("text", 2, { text: "working", partial: true })));
    await userEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(panel.posted()).toEqual([{ type: "cancelTask" }]);
    panel.send({ type: "taskRunning", running: false });
    expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull();
  });

  it("offers only Start New Task, not Cancel, once the task completed and waits for the person", async () => {
    const panel = renderPanel(runningWith(say("completion_result", 2, { text: "Done." })));
    expect(await screen.findByRole("button", { name: "Cancel" })).toBeInTheDocument();
    const result = ask("completion_result", 3, { text: "" });
    panel.send({ type: "questionChanged", question: questionOf(result) });
    panel.send({ type: "messageAdded", message: result });
    expect(await screen.findByRole("button", { name: "Start New Task" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull();
  });

  it("shows a single Task Completed row for a completion and its ask", () => {
    const { container } = renderPanel(runningWith(say("completion_result", 2, { text: "Wrote **a.txt**." }), ask("completion_result", 3, { text: "" })));
    expect(screen.getAllByText("Task Completed")).toHaveLength(1);
    expect(container.querySelector('[data-row="ask:completion_result"]')?.textContent).toBe("Reply to keep working on this task, or start a new one.");
  });

  it("restores a draft saved before the webview was hidden", () => {
    renderPanel(makeState(), { draft: "half-typed thought" });
    expect(messageBox()).toHaveValue("half-typed thought");
  });

  it("inserts text the host sends into the box", () => {
    const panel = renderPanel(makeState());
    panel.send({ type: "insertText", text: "const x = 1;" });
    expect(messageBox()).toHaveValue("const x = 1;");
  });
});

describe("the message list", () => {
  it("shows streamed updates in place and removals", () => {
    const panel = renderPanel(runningWith());
    panel.send({ type: "messageAdded", message: say("text", 2, { text: "Hel", partial: true }) });
    expect(screen.getByText("Hel")).toBeInTheDocument();
    panel.send({ type: "messageUpdated", message: say("text", 2, { text: "Hello **world**" }) });
    expect(screen.queryByText("Hel")).toBeNull();
    expect(screen.getByText("world").tagName).toBe("STRONG");
    panel.send({ type: "messageAdded", message: say("error", 3, { text: "Disk full" }) });
    panel.send({ type: "messagesRemoved", timestamps: [2] });
    expect(screen.queryByText("world")).toBeNull();
    expect(screen.getByText("Disk full")).toBeInTheDocument();
  });
});

describe("queued messages", () => {
  async function queue(text: string) {
    await userEvent.type(messageBox(), `${text}{Enter}`);
  }

  it("queues a message while the agent is busy and sends it as the reply when a question opens", async () => {
    const panel = renderPanel(runningWith(say("text", 2, { text: "thinking", partial: true })));
    await queue("also update the docs");
    expect(panel.posted()).toEqual([]);
    expect(within(screen.getByLabelText("Queued messages")).getByText("also update the docs")).toBeInTheDocument();

    panel.send({ type: "questionChanged", question: questionOf(ask("tool", 3, { tool: { tool: "read_file", path: "a.ts" } })) });
    expect(panel.posted()).toEqual([answer(3, "reply", { text: "also update the docs", images: [] })]);
    expect(screen.queryByLabelText("Queued messages")).toBeNull();
  });

  it("holds the queue while the open question takes no reply, and sends it to the next one that does", async () => {
    const panel = renderPanel(runningWith(say("text", 2)));
    await queue("note");
    panel.send({ type: "questionChanged", question: questionOf(ask("api_req_failed", 3)) });
    expect(panel.posted()).toEqual([]);
    expect(await shown("Retry")).toBeInTheDocument();
    panel.send({ type: "questionChanged", question: questionOf(ask("followup", 4)) });
    expect(panel.posted()).toEqual([answer(4, "reply", { text: "note", images: [] })]);
  });

  it("starts a new task with the queue when the task ends", async () => {
    const panel = renderPanel(runningWith(say("text", 2)));
    await queue("first");
    await queue("second");
    panel.send({ type: "taskRunning", running: false });
    expect(panel.posted()).toEqual([{ type: "newTask", text: "first\n\nsecond", images: [] }]);
  });

  it("lets a queued message be edited or removed before it goes", async () => {
    const panel = renderPanel(runningWith(say("text", 2)));
    await queue("drop me");
    await queue("keep me");
    const items = screen.getAllByTestId("queued-item");
    await userEvent.click(within(items[0]!).getByRole("button", { name: "Remove queued message" }));
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message" }));
    const editor = screen.getByRole("textbox", { name: "Edit queued message" });
    await userEvent.clear(editor);
    await userEvent.type(editor, "keep me, edited");
    // While it is being edited, the queue holds back.
    panel.send({ type: "taskRunning", running: false });
    expect(panel.posted()).toEqual([]);
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(panel.posted()).toEqual([{ type: "newTask", text: "keep me, edited", images: [] }]);
  });

  it("keeps the queue across a reload and sends it only once the host's state is known", () => {
    const saved = { queue: [{ id: "q1", text: "saved while hidden", images: [] }] };
    const panel = renderPanel(undefined, saved);
    expect(panel.posted()).toEqual([]);
    panel.send({ type: "state", state: runningWith(say("text", 2)) });
    expect(panel.posted()).toEqual([]);
    panel.send({ type: "questionChanged", question: questionOf(ask("completion_result", 3)) });
    expect(panel.posted()).toEqual([answer(3, "reply", { text: "saved while hidden", images: [] })]);
  });
});

describe("images", () => {
  const png = (name: string, bytes = 8) => new File([new Uint8Array(bytes)], name, { type: "image/png" });
  const paste = (files: File[]) => fireEvent.paste(messageBox(), { clipboardData: { files, items: [], types: ["Files"] } });

  it("adds a thumbnail for a pasted image, removes it, and sends images with the task", async () => {
    const panel = renderPanel(makeState());
    paste([png("one.png"), png("two.png")]);
    expect(await screen.findByAltText("Image 2 to send")).toBeInTheDocument();
    expect(screen.getByAltText("Image 1 to send").getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    await userEvent.click(screen.getByRole("button", { name: "Remove image 2" }));
    expect(screen.queryByAltText("Image 2 to send")).toBeNull();
    await userEvent.type(messageBox(), "what is this?{Enter}");
    const [sent] = panel.posted();
    expect(sent).toMatchObject({ type: "newTask", text: "what is this?" });
    expect(sent?.type === "newTask" && sent.images).toHaveLength(1);
  });

  it("adds dropped images and explains files it leaves out", async () => {
    renderPanel(makeState());
    const notAnImage = new File(["x"], "notes.txt", { type: "text/plain" });
    const huge = png("huge.png", 5 * 1024 * 1024 + 1);
    fireEvent.drop(messageBox(), { dataTransfer: { files: [png("ok.png"), notAnImage, huge], items: [], types: ["Files"] } });
    expect(await screen.findByAltText("Image 1 to send")).toBeInTheDocument();
    expect(screen.getByText("notes.txt is not a PNG, JPEG, GIF or WebP image.")).toBeInTheDocument();
    expect(screen.getByText("huge.png is larger than 5 MB.")).toBeInTheDocument();
  });

  it("stops at 20 images", async () => {
    renderPanel(makeState());
    paste(Array.from({ length: 22 }, (_, i) => png(`${i}.png`)));
    expect(await screen.findByText("At most 20 images can be attached; 2 left out.")).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByAltText(/to send$/)).toHaveLength(20));
  });
});

describe("task header and auto-approve bar", () => {
  it("shows the task, token and cost totals, and how full the context window is", () => {
    const usage = (ts: number, tokensIn: number, tokensOut: number, cost: number, cacheReads = 0) =>
      say("api_req_started", ts, { apiRequest: { tokensIn, tokensOut, cacheReads, cacheWrites: 0, cost } });
    renderPanel(runningWith(usage(2, 1000, 200, 0.01), usage(3, 3000, 1000, 0.02, 16000)));
    const header = screen.getByRole("region", { name: "Task" });
    expect(within(header).getByText(TASK.text)).toBeInTheDocument();
    expect(within(header).getByText("Tokens ↑ 4k ↓ 1.2k")).toBeInTheDocument();
    expect(within(header).getByText("$0.0300")).toBeInTheDocument();
    expect(within(header).getByRole("meter", { name: "Context window" })).toHaveAttribute("aria-valuenow", String(3000 + 1000 + 16000));
  });

  it("shows the first request's estimate until its usage arrives, in the header and on the row", () => {
    const estimate = { tokensIn: 3400, cost: 0.0085 };
    const panel = renderPanel(runningWith(say("api_req_started", 2, { apiRequest: { tokensIn: 0, tokensOut: 0, cacheReads: 0, cacheWrites: 0, cost: 0, estimate } })));
    const header = screen.getByRole("region", { name: "Task" });
    expect(within(header).getByText("First request: about $0.0085 for ~3.4k tokens in, before its answer")).toBeInTheDocument();
    expect(screen.getByText("Estimate: ~3.4k tokens in, about $0.0085 before the answer")).toBeInTheDocument();
    panel.send({ type: "messageUpdated", message: say("api_req_started", 2, { apiRequest: { tokensIn: 3, tokensOut: 40, cacheReads: 0, cacheWrites: 3390, cost: 0.0091, estimate } }) });
    expect(within(header).queryByText(/First request: about/)).toBeNull();
    expect(screen.queryByText(/^Estimate:/)).toBeNull();
    expect(within(header).getByText("$0.0091")).toBeInTheDocument();
  });

  it("closes the task from the header", async () => {
    const panel = renderPanel(runningWith());
    await userEvent.click(screen.getByRole("button", { name: "Close task" }));
    expect(panel.posted()).toEqual([{ type: "clearTask" }]);
  });

  it("sends a switched auto-approval with the others unchanged, and warns about YOLO", async () => {
    const panel = renderPanel(makeState());
    const toggle = async (setting: string) => {
      const checkbox = document.querySelector(`vscode-checkbox[data-setting="${setting}"]`);
      // The element renders its shadow content asynchronously; click its label as a person would.
      const label = await waitFor(() => checkbox?.shadowRoot?.querySelector("label") ?? expect.fail("not rendered yet"));
      fireEvent.click(label);
    };
    await toggle("editFiles");
    expect(panel.posted()).toEqual([
      {
        type: "updateAgentSettings",
        settings: {
          autoApproval: {
            readFiles: true, readFilesExternally: false, editFiles: true, editFilesExternally: false,
            executeSafeCommands: false, executeAllCommands: false, useBrowser: false, useMcp: false, runOutsideSandbox: false,
          },
        },
      },
    ]);
    expect(screen.getByText(/YOLO approves every file edit and every command without asking you/)).toBeInTheDocument();
    await toggle("yolo");
    expect(panel.posted().at(-1)).toEqual({ type: "updateAgentSettings", settings: { yolo: true } });
  });
});
