import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { TaskLedger } from "../../../src/shared/messages";
import { say } from "../test-support/fixtures";
import { TaskLedgerRow } from "./TaskLedgerRow";

const LEDGER: TaskLedger = {
  files: ["notes.txt", "src/a.ts"],
  commands: [
    { command: "npm test", sandbox: "sandboxed", end: { kind: "exited", code: 0 } },
    { command: "exit 3", sandbox: "sandboxed", end: { kind: "exited", code: 3 } },
    { command: "curl example.com", sandbox: "outside", end: { kind: "exited", code: 0 } },
  ],
  hosts: ["docs.example.com"],
  mcpServers: [],
};

describe("TaskLedgerRow", () => {
  it("lists what the task touched under headings, each command's end and confinement in words", () => {
    render(<TaskLedgerRow message={say("task_ledger", 1, { text: "summary", ledger: LEDGER })} />);
    expect(screen.getByRole("region", { name: "What the task touched" })).toBeInTheDocument();
    const files = screen.getByRole("list", { name: "Files written (2)" });
    expect(within(files).getAllByRole("listitem").map((item) => item.textContent)).toEqual(["notes.txt", "src/a.ts"]);
    const commands = screen.getByRole("list", { name: "Commands run (3)" });
    expect(within(commands).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "npm test · Exit code 0 · sandboxed",
      "exit 3 · Exit code 3 · sandboxed",
      "curl example.com · Exit code 0 · outside the sandbox by request",
    ]);
    expect(within(screen.getByRole("list", { name: "Hosts contacted (1)" })).getByRole("listitem").textContent).toBe("docs.example.com");
    // An empty part says so rather than disappearing.
    expect(screen.getByRole("heading", { name: "MCP servers used (0)" })).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "MCP servers used (0)" })).toBeNull();
    expect(screen.getByText("None")).toBeInTheDocument();
  });

  it("lists apart the files changed otherwise, when the checkpoints said which", () => {
    render(<TaskLedgerRow message={say("task_ledger", 3, { text: "summary", ledger: { ...LEDGER, otherChanges: ["build/out.js"] } })} />);
    const other = screen.getByRole("list", { name: "Files changed otherwise since the task began (by commands, or outside Tandem) (1)" });
    expect(within(other).getByRole("listitem").textContent).toBe("build/out.js");
  });

  it("shows no section of other changes when the checkpoints found none", () => {
    render(<TaskLedgerRow message={say("task_ledger", 4, { text: "summary", ledger: { ...LEDGER, otherChanges: [] } })} />);
    expect(screen.queryByRole("list", { name: /changed otherwise/ })).toBeNull();
    expect(screen.queryByText(/changed otherwise/)).toBeNull();
  });

  it("shows the row's text when a row carries no ledger (an older host)", () => {
    const { container } = render(<TaskLedgerRow message={say("task_ledger", 2, { text: "What the task touched\nFiles written: none" })} />);
    expect(container.textContent).toContain("Files written: none");
  });
});
