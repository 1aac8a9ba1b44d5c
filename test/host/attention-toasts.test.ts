/** The VS Code host's notifications, with the window's focus and the setting given as plain values. */
import { describe, expect, it } from "vitest";
import { AttentionToasts, SHOW, showNotice, type ToastDeps } from "../../src/host/vscode/attention-toasts";
import type { WebviewSession } from "../../src/core/controller/webview-session";
import type { Notice } from "../../src/shared/notice";

const NOTICE: Notice = { event: "question", kind: "command", message: "Tandem wants to run `npm test`", task: "Fix the tests", taskId: "t1", questionId: 42 };

function toasts(options: { focused?: boolean; enabled?: boolean; press?: string } = {}) {
  const shown: string[] = [];
  const wentTo: Notice[] = [];
  const reported: unknown[] = [];
  let pressed: (() => void) | undefined;
  const clicked = new Promise<void>((resolve) => (pressed = resolve));
  const deps: ToastDeps = {
    focused: () => options.focused ?? false,
    enabled: () => options.enabled ?? true,
    show: async (text, button) => {
      shown.push(`${text} [${button}]`);
      return options.press;
    },
    goTo: async (notice) => {
      wentTo.push(notice);
      pressed?.();
    },
    report: (error) => reported.push(error),
  };
  return { toasts: new AttentionToasts(deps), shown, wentTo, reported, clicked };
}

describe("VS Code notifications", () => {
  it("while the window is not focused: one notification naming the question and the task, with a Show button", () => {
    const t = toasts();
    expect(t.toasts.notify(NOTICE)).toBe(true);
    expect(t.shown).toEqual([`Tandem wants to run \`npm test\` — task: Fix the tests [${SHOW}]`]);
  });

  it("none while the window is focused, nor when the setting is off", () => {
    const focused = toasts({ focused: true });
    expect(focused.toasts.notify(NOTICE)).toBe(false);
    const off = toasts({ enabled: false });
    expect(off.toasts.notify(NOTICE)).toBe(false);
    expect([...focused.shown, ...off.shown]).toEqual([]);
  });

  it("Show takes the person to the notice's question", async () => {
    const t = toasts({ press: SHOW });
    t.toasts.notify(NOTICE);
    await t.clicked;
    expect(t.wentTo).toEqual([NOTICE]);
  });

  it("dismissed, it does nothing", async () => {
    const t = toasts({ press: undefined });
    t.toasts.notify(NOTICE);
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(t.shown).toHaveLength(1);
    expect(t.wentTo).toEqual([]);
  });

  it("a model's words cannot become a link in the notification", () => {
    const t = toasts();
    t.toasts.notify({ ...NOTICE, message: "Tandem wants to read [docs](command:workbench.action.terminal.new)" });
    expect(t.shown[0]).toContain("[docs] (command:workbench.action.terminal.new)");
  });
});

describe("Show", () => {
  function panel(openQuestion: { taskId: string; id: number } | undefined) {
    const calls: string[] = [];
    const session = {
      showView: (view: string) => calls.push(`view ${view}`),
      focusQuestion: (taskId: string, id: number) => {
        const open = openQuestion?.taskId === taskId && openQuestion.id === id;
        if (open) calls.push(`question ${id}`);
        return open;
      },
      focusInput: () => calls.push("input"),
    } as unknown as WebviewSession;
    const view = { reveal: async () => void calls.push("reveal") };
    return { calls, go: (notice: Notice) => showNotice(view, { get: async () => session }, notice) };
  }

  it("reveals the chat and takes the keyboard to the question while it is open", async () => {
    const p = panel({ taskId: "t1", id: 42 });
    await p.go(NOTICE);
    expect(p.calls).toEqual(["reveal", "view chat", "question 42"]);
  });

  it("a question answered meanwhile (or another task's) leaves the keyboard in the input box", async () => {
    const answered = panel(undefined);
    await answered.go(NOTICE);
    expect(answered.calls).toEqual(["reveal", "view chat", "input"]);
    const other = panel({ taskId: "t2", id: 42 });
    await other.go(NOTICE);
    expect(other.calls.at(-1)).toBe("input");
  });

  it("a task's end without a question opens the chat at the input box", async () => {
    const p = panel({ taskId: "t1", id: 42 });
    await p.go({ event: "taskEnded", kind: "failed", message: "Tandem stopped", task: "x", taskId: "t1" });
    expect(p.calls).toEqual(["reveal", "view chat", "input"]);
  });
});
