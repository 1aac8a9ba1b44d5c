/** A failed request's rows stop moving once it is over, and a refused key leads to the settings. */
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../src/shared/messages";
import { ExtensionStore } from "../state/extension-store";
import { PanelContext } from "../state/panel-context";
import { say } from "../test-support/fixtures";
import { createMemoryApi } from "../vscode-api";
import { RowForMessage } from "./MessageRow";

function renderRow(message: ChatMessage) {
  const store = new ExtensionStore();
  const view = render(
    <PanelContext.Provider value={{ api: createMemoryApi(), store }}>
      <RowForMessage message={message} />
    </PanelContext.Provider>,
  );
  return { ...view, store };
}

const counts = { tokensIn: 10, tokensOut: 0, cacheReads: 0, cacheWrites: 0, cost: 0 };
const retry = { attempt: 3, maxAttempts: 3, delaySeconds: 0, reason: "API request failed: server error (HTTP 500)" };

describe("a retry's row", () => {
  it("says it is retrying only while it is", () => {
    const { container, unmount } = renderRow(say("error_retry", 7001, { retry }));
    expect(container.querySelector(".row-title")?.textContent).toBe("Retrying now (attempt 3 of 3)");
    unmount();
    const done = renderRow(say("error_retry", 7002, { retry: { ...retry, delaySeconds: 8, outcome: "retried" } }));
    expect(done.container.querySelector(".row-title")?.textContent).toBe("Retried after 8s (attempt 3 of 3)");
    expect(done.container.querySelector(".codicon-modifier-spin, .spin")).toBeNull();
    done.unmount();
    const cancelled = renderRow(say("error_retry", 7003, { retry: { ...retry, outcome: "cancelled" } }));
    expect(cancelled.container.querySelector(".row-title")?.textContent).toBe("Retry cancelled (attempt 3 of 3)");
  });
});

describe("a failed request's row", () => {
  it("offers the settings when the key was refused", async () => {
    const { store } = renderRow(say("api_req_started", 1, { apiRequest: { ...counts, outcome: "failed", error: "Anthropic: the API key or the account was refused (HTTP 401): invalid x-api-key", keyRefused: true } }));
    expect(screen.getByText("API request failed")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Open settings" }));
    expect(store.getState().view).toBe("settings");
  });

  it("offers nothing to fix for other failures", () => {
    renderRow(say("api_req_started", 1, { apiRequest: { ...counts, outcome: "failed", error: "server error (HTTP 500)" } }));
    expect(screen.queryByRole("button", { name: "Open settings" })).toBeNull();
  });
});
