import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ExtensionStore } from "../state/extension-store";
import { ask, asking, makeState, questionOf, runningWith, say, TASK } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";
import { LiveAnnouncer, MAX_ANNOUNCED_CHARS, questionAnnouncement, spoken, THROTTLE_MS, watchChat, type Timers } from "./announcements";

const fakeTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

describe("the live announcer", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("says the first polite text at once, then at most one per THROTTLE_MS, joining what came in between", () => {
    const announcer = new LiveAnnouncer(fakeTimers);
    announcer.announce("First.", false);
    expect(announcer.getState().polite).toBe("First.");
    announcer.announce("Second.", false);
    announcer.announce("Third.", false);
    expect(announcer.getState().polite).toBe("First.");
    vi.advanceTimersByTime(THROTTLE_MS - 1);
    expect(announcer.getState().polite).toBe("First.");
    vi.advanceTimersByTime(1);
    expect(announcer.getState().polite).toBe("Second. Third.");
    announcer.dispose();
  });

  it("says an urgent text at once, whatever the polite queue holds, and the same words twice still change the region", () => {
    const announcer = new LiveAnnouncer(fakeTimers);
    announcer.announce("Chatter.", false);
    announcer.announce("More chatter.", false);
    announcer.announce("Error: the key was refused", true);
    expect(announcer.getState().assertive).toBe("Error: the key was refused");
    announcer.announce("Error: the key was refused", true);
    expect(announcer.getState().assertive).toBe("Error: the key was refused\u00a0");
    announcer.dispose();
    vi.advanceTimersByTime(THROTTLE_MS * 2);
    expect(announcer.getState().polite).toBe("Chatter.");
  });

  it("turns markdown and long text into one short line", () => {
    expect(spoken("**Done.**\n\n```ts\nconst x = 1;\n```\n# Next")).toBe("Done. (code) Next");
    const long = spoken("word ".repeat(200));
    expect(long.length).toBeLessThan(MAX_ANNOUNCED_CHARS + 30);
    expect(long).toMatch(/… \(more in the chat\)$/);
  });

  it("names what each question asks", () => {
    const command = ask("command", 5, { text: "npm test" });
    expect(questionAnnouncement(questionOf(command), command)).toBe("Tandem asks to run a command: npm test");
    const write = ask("tool", 6, { tool: { tool: "write_to_file", path: "src/a.ts" } });
    expect(questionAnnouncement(questionOf(write), write)).toBe("Tandem asks to write this file: src/a.ts");
    const followup = ask("followup", 7, { text: "Which one?", options: ["A", "B"] });
    expect(questionAnnouncement(questionOf(followup), followup)).toBe("Tandem asks: Which one? Options: A, B.");
    const plan = ask("plan_mode_respond", 9, { text: "Split it.\n\nOptions:\n- A\n- B", options: ["A", "B"] });
    expect(questionAnnouncement(questionOf(plan), plan), "the options once, not also from the text").toBe("Tandem's plan: Split it. Options: A, B.");
    const failed = ask("api_req_failed", 8, { text: "401 invalid x-api-key" });
    expect(questionAnnouncement(questionOf(failed), failed)).toBe("API request failed: 401 invalid x-api-key");
  });
});

describe("the chat's announcements from the store", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const setup = () => {
    const store = new ExtensionStore();
    store.apply({ type: "state", state: runningWith(say("text", 5, { text: "Loaded before: not news." })) });
    const announcer = new LiveAnnouncer(fakeTimers);
    const stop = watchChat(store, announcer);
    return { store, announcer, stop };
  };

  it("says a message's finished text once, not its chunks, and is busy while it streams", () => {
    const { store, announcer, stop } = setup();
    expect(announcer.getState()).toEqual({ polite: "", assertive: "", busy: false });
    store.apply({ type: "messageAdded", message: say("text", 10, { text: "I will", partial: true }) });
    expect(announcer.getState().busy).toBe(true);
    store.apply({ type: "messageStreamed", ts: 10, field: "text", from: 6, text: " read the file" });
    expect(announcer.getState().polite).toBe("");
    store.apply({ type: "messageUpdated", message: say("text", 10, { text: "I will read the file." }) });
    expect(announcer.getState()).toMatchObject({ polite: "I will read the file.", busy: false });
    // A later update of a finished message (its usage, say) is not news.
    vi.advanceTimersByTime(THROTTLE_MS);
    store.apply({ type: "messageUpdated", message: say("text", 10, { text: "I will read the file." }) });
    expect(announcer.getState().polite).toBe("I will read the file.");
    stop();
  });

  it("says a new question, an error and the completion at once", () => {
    const { store, announcer, stop } = setup();
    const command = ask("command", 20, { text: "npm test" });
    store.apply({ type: "messageAdded", message: command });
    store.apply({ type: "questionChanged", question: questionOf(command) });
    expect(announcer.getState().assertive).toBe("Tandem asks to run a command: npm test");
    store.apply({ type: "questionChanged", question: undefined });
    store.apply({ type: "messageAdded", message: say("error", 30, { text: "The command failed." }) });
    expect(announcer.getState().assertive).toBe("Error: The command failed.");
    store.apply({ type: "messageAdded", message: say("completion_result", 40, { text: "All **tests** pass.", partial: true }) });
    store.apply({ type: "messageUpdated", message: say("completion_result", 40, { text: "All **tests** pass." }) });
    const completion = ask("completion_result", 41);
    store.apply({ type: "messageAdded", message: completion });
    store.apply({ type: "questionChanged", question: questionOf(completion) });
    expect(announcer.getState().assertive).toBe("Task Completed: All tests pass.");
    stop();
  });

  it("says a question whose row is not all there yet with the row's next update", () => {
    const { store, announcer, stop } = setup();
    const command = ask("command", 20, { partial: true });
    store.apply({ type: "messageAdded", message: command });
    store.apply({ type: "questionChanged", question: questionOf(command) });
    expect(announcer.getState().assertive).toBe("");
    store.apply({ type: "messageUpdated", message: ask("command", 20, { text: "npm test" }) });
    expect(announcer.getState().assertive).toBe("Tandem asks to run a command: npm test");
    stop();
  });

  it("stops listening when stopped", () => {
    const { store, announcer, stop } = setup();
    stop();
    store.apply({ type: "messageAdded", message: say("error", 30, { text: "Unheard." }) });
    expect(announcer.getState().assertive).toBe("");
  });
});

describe("the chat's live region and log in the panel", () => {
  it("renders a polite status and an assertive alert outside the list, and the list is a named log, busy while streaming", () => {
    const panel = renderPanel(runningWith(say("text", 5, { text: "Thinking", partial: true })));
    const log = screen.getByRole("log", { name: "Messages" });
    expect(log).toHaveAttribute("aria-busy", "true");
    const regions = screen.getByTestId("chat-announcements");
    expect(log.contains(regions)).toBe(false);
    panel.send({ type: "messageUpdated", message: say("text", 5, { text: "Thinking done." }) });
    expect(log).toHaveAttribute("aria-busy", "false");
    expect(screen.getByRole("status")).toHaveTextContent("Thinking done.");
    const command = ask("command", 9, { text: "npm test" });
    panel.send({ type: "messageAdded", message: command });
    panel.send({ type: "questionChanged", question: questionOf(command) });
    expect(screen.getByRole("alert")).toHaveTextContent("Tandem asks to run a command: npm test");
  });
});

describe("the focus after an answer", () => {
  it("goes back to the input after Run, and after Start New Task", async () => {
    const command = ask("command", 9, { text: "npm test" });
    const panel = renderPanel(asking(command));
    await userEvent.click(await screen.findByRole("button", { name: "Run" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Message" })));

    const completion = ask("completion_result", 12);
    panel.send({ type: "state", state: { ...asking(say("completion_result", 11, { text: "Done." }), completion) } });
    await userEvent.click(await screen.findByRole("button", { name: "Start New Task" }));
    expect(panel.posted().at(-1)).toEqual({ type: "clearTask" });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Message" })));
  });

  it("goes back to the input when the task is closed from its header", async () => {
    renderPanel(makeState({ task: TASK, messages: [say("task", 1, { text: TASK.text })] }));
    const close = screen.getByRole("button", { name: "Close task" });
    await userEvent.click(close);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Message" })));
  });
});
