import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { HookRunInfo } from "../../../src/shared/messages";
import { say } from "../test-support/fixtures";
import { HookRow } from "./HookRow";

const run = (fields: Partial<HookRunInfo>): HookRunInfo => ({ point: "PreToolUse", path: "/ws/.tandem/hooks/PreToolUse", source: "workspace", outcome: "ok", durationMs: 12, ...fields });

describe("HookRow", () => {
  it("shows the point, the file, how it ended and how long, with its output folded until asked", () => {
    const { container } = render(<HookRow message={say("hook", 1, { text: "summary", hook: run({ outcome: "cancelled", message: "No .js files.", exitCode: 0, output: "HOOK-STDOUT" }) })} />);
    expect(screen.getByText("PreToolUse hook cancelled")).toBeInTheDocument();
    expect(screen.getByText("/ws/.tandem/hooks/PreToolUse")).toBeInTheDocument();
    expect(container.textContent).toContain("12 ms · exit 0");
    expect(screen.getByText("No .js files.")).toBeInTheDocument();
    expect(container.textContent).not.toContain("HOOK-STDOUT");
    const toggle = screen.getByRole("button", { name: "Show output" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    fireEvent.click(toggle);
    expect(container.querySelector("pre")?.textContent).toBe("HOOK-STDOUT");
    fireEvent.click(screen.getByRole("button", { name: "Hide output" }));
    expect(container.querySelector("pre")).toBeNull();
  });

  it("says what went wrong with a failed or timed-out hook, and offers no output button when it printed nothing", () => {
    const { container } = render(<HookRow message={say("hook", 2, { hook: run({ outcome: "timeout", problem: "it ran longer than 30 s and was stopped", sandboxed: true }) })} />);
    expect(screen.getByText("PreToolUse hook timed out")).toBeInTheDocument();
    expect(screen.getByText("It ran longer than 30 s and was stopped.")).toBeInTheDocument();
    expect(container.textContent).toContain("in the sandbox");
    expect(screen.queryByRole("button")).toBeNull();
    expect(container.querySelector('[data-row="say:hook"]')?.className).toContain("tone-error");
  });
});
