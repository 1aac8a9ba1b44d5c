import { describe, expect, it } from "vitest";
import type { ToWebviewMessage } from "../../src/shared/protocol";
import { checkIncomingMessage } from "../../src/host/vscode/incoming-message";
import { WebviewOutbox } from "../../src/host/vscode/webview-outbox";

describe("checkIncomingMessage", () => {
  it("accepts an object whose type is a protocol message type", () => {
    const message = { type: "newTask", text: "hi", images: [] };
    expect(checkIncomingMessage(message)).toEqual({ ok: true, message });
  });

  it.each([
    [null, "expected an object, got null"],
    ["ready", "expected an object, got string"],
    [[{ type: "ready" }], "expected an object, got an array"],
    [{ kind: "ready" }, "the message has no string `type`"],
    [{ type: 7 }, "the message has no string `type`"],
    [{ type: "toString" }, 'unknown message type "toString"'],
    [{ type: "rm -rf" }, 'unknown message type "rm -rf"'],
  ])("refuses %j with a reason", (value, reason) => {
    expect(checkIncomingMessage(value)).toEqual({ ok: false, reason });
  });
});

describe("WebviewOutbox", () => {
  const state: ToWebviewMessage = { type: "taskRunning", running: true };
  const show: ToWebviewMessage = { type: "showView", view: "settings" };
  const insert: ToWebviewMessage = { type: "insertText", text: "x" };

  function page(outbox: WebviewOutbox) {
    const received: ToWebviewMessage[] = [];
    const sink = (m: ToWebviewMessage) => void received.push(m);
    outbox.attach(sink);
    return { received, sink };
  }

  it("drops state deltas while no page listens (the page gets the full state when ready)", () => {
    const outbox = new WebviewOutbox();
    outbox.post(state);
    const { received } = page(outbox);
    outbox.post(state);
    outbox.open();
    outbox.flushWaiting();
    expect(received).toEqual([]);
    outbox.post(state);
    expect(received).toEqual([state]);
  });

  it("keeps requests made before the page was ready and delivers them in order after the state", () => {
    const outbox = new WebviewOutbox();
    outbox.post(show); // before any page exists (a command opened the panel)
    const { received } = page(outbox);
    outbox.post(insert);
    outbox.open();
    outbox.post(state); // the full state the session sends on "ready"
    outbox.flushWaiting();
    expect(received).toEqual([state, show, insert]);
    outbox.flushWaiting();
    expect(received).toHaveLength(3);
  });

  it("stops delivering when the page goes, and ignores the detach of a page already replaced", () => {
    const outbox = new WebviewOutbox();
    const old = page(outbox);
    outbox.open();
    const fresh = page(outbox);
    outbox.detach(old.sink); // the old page's dispose arrives late
    outbox.open();
    outbox.post(state);
    expect(fresh.received).toEqual([state]);
    outbox.detach(fresh.sink);
    outbox.post(state);
    expect(fresh.received).toEqual([state]);
    expect(old.received).toEqual([]);
  });

  it("keeps only the latest requests when many pile up", () => {
    const outbox = new WebviewOutbox();
    for (let i = 0; i < 50; i++) outbox.post({ type: "insertText", text: String(i) });
    const { received } = page(outbox);
    outbox.open();
    outbox.flushWaiting();
    expect(received.length).toBeLessThan(50);
    expect(received.at(-1)).toEqual({ type: "insertText", text: "49" });
  });
});
