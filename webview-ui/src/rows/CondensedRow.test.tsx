/** The "Context condensed" row: the figures in its title, the summary folded until opened. */
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ChatMessage, SayMessage } from "../../../src/shared/messages";
import { say } from "../test-support/fixtures";
import { RowForMessage } from "./MessageRow";

const condensed = (extra: Partial<SayMessage> = {}): ChatMessage =>
  say("context_condensed", 7, { text: "1. The task: fix the parser.\n5. Next: run the tests.", condense: { tokensBefore: 152_340, tokensAfter: 18_020, trigger: "auto" }, ...extra });

describe("the condensed context row", () => {
  it("names the sizes before and after, and keeps the summary folded until opened", () => {
    const { container } = render(<RowForMessage message={condensed()} />);
    expect(screen.getByText("Context condensed: 152,340 → 18,020 tokens")).toBeInTheDocument();
    const fold = container.querySelector("vscode-collapsible.condensed-summary") as HTMLElement & { open: boolean; heading: string };
    expect(fold.open).toBe(false);
    expect(fold.heading, "the heading, not the deprecated title").toBe("Summary");
    expect(fold.textContent).toContain("5. Next: run the tests.");
    fold.open = true;
    expect(container.querySelector(".condensed-summary-text")?.textContent).toBe("1. The task: fix the parser.\n5. Next: run the tests.");
    expect(screen.queryByText("Condensed on request (/compact).")).toBeNull();
  });

  it("says when the person asked for it", () => {
    render(<RowForMessage message={condensed({ condense: { tokensBefore: 900, tokensAfter: 300, trigger: "compact" } })} />);
    expect(screen.getByText("Context condensed: 900 → 300 tokens")).toBeInTheDocument();
    expect(screen.getByText("Condensed on request (/compact).")).toBeInTheDocument();
  });
});
