/**
 * The task ledger in words: the CLI prints these lines and the chat row keeps them as its text
 * (exports, history); the panel renders the same facts as lists (webview TaskLedgerRow).
 */
import { commandEndText } from "./command-run";
import type { LedgerCommand, TaskLedger } from "./messages";

/** The heading of the files the checkpoints show changed that no edit tool wrote. */
export const OTHER_CHANGES_TITLE = "Files changed otherwise since the task began (by commands, or outside Tandem)";

/** How a command was confined, for the person. */
export function ledgerSandboxText(sandbox: LedgerCommand["sandbox"]): string {
  switch (sandbox) {
    case "sandboxed":
      return "sandboxed";
    case "outside":
      return "outside the sandbox by request";
    case "unconfined":
      return "unconfined";
  }
}

/** One command's line: how it ended and how it was confined. */
export function ledgerCommandText(command: LedgerCommand): string {
  return `${command.command} (${command.end ? commandEndText(command.end).toLowerCase() : "did not start"}, ${ledgerSandboxText(command.sandbox)})`;
}

/** The ledger as indented lines under a heading; an empty section says "none". */
export function ledgerText(ledger: TaskLedger): string {
  const section = (title: string, items: readonly string[]) => `${title}:${items.length === 0 ? " none" : items.map((item) => `\n  - ${item}`).join("")}`;
  return [
    "What the task touched",
    section("Files written", ledger.files),
    // Only when there are some: the usual case is none, and "Files written" says what the task did.
    ...(ledger.otherChanges?.length ? [section(OTHER_CHANGES_TITLE, ledger.otherChanges)] : []),
    section("Commands run", ledger.commands.map(ledgerCommandText)),
    section("Hosts contacted", ledger.hosts),
    section("MCP servers used", ledger.mcpServers),
  ].join("\n");
}
