/**
 * The task's ledger: what it touched, for the person to check at a glance (security issue 29). It
 * hears every call end (the model's and nested ones, such as attempt_completion's command) and
 * keeps the files the edit tools wrote, the commands that ran with their confinement and end as
 * their output rows recorded them, the hosts web_fetch and sandboxed commands reached (the
 * sandbox's proxy hears those; a command outside it is not heard) and the MCP servers used.
 *
 * It is said as one row when the model presents its result, just before the result: the panel's
 * "Start New Task" clears the chat as it accepts, so a row said only once the task completed would
 * never be seen there. When the task completes, that row is brought up to date (the result's own
 * command ran after it). A reply that continues the task gets a new row with its next result.
 *
 * Files a command changed are listed apart, from the checkpoints (what differs from the workspace
 * as the task found it, that no edit tool wrote), when checkpoints are on. A resumed task's
 * ledger goes on from the last one its chat shows, so what the earlier runs touched stays listed
 * (a task taken back to a checkpoint goes on from the ledger before it). An empty ledger adds no row.
 */
import type { CommandConfinement, CommandEnd, CommandRunInfo } from "../../../shared/command-run";
import type { ChatMessage, LedgerCommand, SayKind, TaskLedger } from "../../../shared/messages";
import type { CallWatch, LentServices, StartingCall, TaskOpening, TaskParticipant } from "../../task/participant";
import type { ToolResult } from "../../task/tools/types";
import { ledgerText } from "../../../shared/task-ledger";
import { locate } from "../../files/paths";
import type { WorkspaceRoots } from "../../util/workspace-roots";

/** What the ledger needs of the task's scope (TaskScope has it all). */
export interface LedgerScope {
  readonly roots: WorkspaceRoots;
  readonly messages: { readonly chatMessages: readonly ChatMessage[] };
  readonly commands: { confinement(outsideSandbox: boolean): CommandConfinement };
  /** What the other participants lend: the checkpoints' changes since the task began, when they are on. */
  readonly participants: { readonly lent: Pick<LentServices, "changes"> };
  /** With `updateTs`: that row is updated instead. Returns the row's timestamp. */
  say(kind: SayKind, text?: string, extra?: { ledger?: TaskLedger; updateTs?: number }): Promise<number>;
}

type Outcome = ToolResult | { readonly failed: string };

const FILE_WRITERS = new Set(["write_to_file", "replace_in_file"]);
const MCP_TOOLS = new Set(["use_mcp_tool", "access_mcp_resource"]);

export class TaskLedgerKeeper implements TaskParticipant {
  readonly name = "ledger";
  // Sets keep the first-touched order and list each once.
  private readonly files = new Set<string>();
  private readonly hosts = new Set<string>();
  private readonly mcpServers = new Set<string>();
  private readonly commands: LedgerCommand[] = [];
  /** The row said with the latest result, and the ledger it shows. */
  private shown: { ts: number; text: string } | undefined;

  constructor(private readonly scope: LedgerScope) {}

  /** A resumed task: the earlier runs' ledger, from the last row that showed one. */
  async opened(opening: TaskOpening): Promise<void> {
    if (opening.kind !== "resumed") return;
    const earlier = opening.chat.findLast((row) => row.type === "say" && row.say === "task_ledger" && row.ledger)?.ledger;
    if (!earlier) return;
    // Read from disk: only what has the ledger's shape is taken, a damaged entry is left out.
    for (const file of strings(earlier.files)) this.files.add(file);
    for (const host of strings(earlier.hosts)) this.hosts.add(host);
    for (const server of strings(earlier.mcpServers)) this.mcpServers.add(server);
    const commands: unknown = earlier.commands;
    if (Array.isArray(commands)) this.commands.push(...commands.flatMap(ledgerCommandOf));
  }

  async callStarting(call: StartingCall): Promise<CallWatch | undefined> {
    // The result is about to be shown: the ledger goes just before it.
    if (call.name === "attempt_completion" && !call.nested) {
      this.shown = undefined;
      await this.show();
      return undefined;
    }
    if (FILE_WRITERS.has(call.name)) return { ended: async (outcome) => this.fileEnded(call, outcome) };
    if (call.name === "execute_command") {
      // The run's rows come after this point in the chat: the ledger reads them, not the model's text.
      const rowsFrom = this.scope.messages.chatMessages.length;
      return { ended: async (outcome) => this.commandEnded(call, outcome, rowsFrom) };
    }
    if (call.name === "web_fetch") return { ended: async (outcome) => this.fetchEnded(call, outcome) };
    if (MCP_TOOLS.has(call.name)) return { ended: async (outcome) => this.mcpEnded(call, outcome) };
    return undefined;
  }

  /** The person accepted the result: its row says everything, the result's command too. */
  async taskCompleted(): Promise<void> {
    await this.show();
  }

  /** Says the ledger, or updates the row that shows it when it changed since; nothing while it is empty. */
  private async show(): Promise<void> {
    const ledger = await this.withOtherChanges(this.ledger());
    if (ledger.files.length + ledger.commands.length + ledger.hosts.length + ledger.mcpServers.length === 0) return;
    const text = ledgerText(ledger);
    if (this.shown?.text === text) return;
    const ts = await this.scope.say("task_ledger", text, { ledger, ...(this.shown ? { updateTs: this.shown.ts } : {}) });
    this.shown = { ts, text };
  }

  /** The ledger as it stands; a command left in the background gets its end if a later row said it. */
  ledger(): TaskLedger {
    const hosts = new Set(this.hosts);
    const commands = this.commands.map((entry) => {
      if (entry.end?.kind !== "background") return entry;
      const later = this.backgroundEnd(entry.command);
      for (const host of later?.hosts ?? []) hosts.add(host);
      return later?.end ? { ...entry, end: later.end } : entry;
    });
    return { files: [...this.files], commands, hosts: [...hosts], mcpServers: [...this.mcpServers] };
  }

  /** The files that differ from the task's first checkpoint but no edit tool wrote: a command changed them. */
  private async withOtherChanges(ledger: TaskLedger): Promise<TaskLedger> {
    const changes = this.scope.participants.lent.changes;
    if (!changes) return ledger;
    const written = new Set(ledger.files);
    return { ...ledger, otherChanges: (await changes.sinceStart()).filter((file) => !written.has(file)) };
  }

  private fileEnded(call: StartingCall, outcome: Outcome): void {
    const path = call.params.path;
    if (!path || !wrote(outcome)) return;
    this.files.add(workspacePath(this.scope.roots, path));
  }

  private commandEnded(call: StartingCall, outcome: Outcome, rowsFrom: number): void {
    // Rejected or refused: it did not run. A failure (it could not start) is listed with no end.
    if ("kind" in outcome && outcome.kind !== "ok") return;
    const command = call.params.command?.trim() ?? "";
    const run = this.scope.messages.chatMessages.slice(rowsFrom).findLast((row) => row.type === "say" && row.say === "command_output" && row.command?.end && !row.command.background)?.command;
    const confinement = run?.confinement ?? this.scope.commands.confinement(call.params.sandbox === "off");
    this.commands.push({ command, sandbox: sandboxOf(confinement), ...(run?.end ? { end: run.end } : {}) });
    for (const host of run?.hosts ?? []) this.hosts.add(host);
  }

  private fetchEnded(call: StartingCall, outcome: Outcome): void {
    // A fetch that failed may still have reached the host: the ledger says more rather than less.
    if (!ran(outcome)) return;
    const host = hostOf(call.params.url);
    if (host) this.hosts.add(host);
  }

  private mcpEnded(call: StartingCall, outcome: Outcome): void {
    const server = call.params.server_name?.trim();
    if (server && ran(outcome)) this.mcpServers.add(server);
  }

  /** The last row of a command that went on in the background, once it said how it ended. */
  private backgroundEnd(command: string): CommandRunInfo | undefined {
    return this.scope.messages.chatMessages.findLast((row) => row.command?.background === command && row.command.end && row.command.end.kind !== "background")?.command;
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

const END_KINDS = new Set(["exited", "signal", "timeout", "killed", "cancelled", "background"]);

/** A saved ledger's command, or none when it is damaged (an end it cannot read is left off). */
function ledgerCommandOf(value: unknown): LedgerCommand[] {
  if (typeof value !== "object" || value === null) return [];
  const { command, sandbox, end } = value as Partial<Record<keyof LedgerCommand, unknown>>;
  if (typeof command !== "string" || (sandbox !== "sandboxed" && sandbox !== "unconfined" && sandbox !== "outside")) return [];
  const readable = typeof end === "object" && end !== null && END_KINDS.has(String((end as { kind?: unknown }).kind));
  return [{ command, sandbox, ...(readable ? { end: end as CommandEnd } : {}) }];
}

/** A write that happened: the tool returned its result (a rejected or failed edit wrote nothing). */
function wrote(outcome: Outcome): boolean {
  return "kind" in outcome && outcome.kind === "ok" && !outcome.isError;
}

/** The call went past the person's approval: it ran, whether it then succeeded or failed. */
function ran(outcome: Outcome): boolean {
  return !("kind" in outcome) || outcome.kind === "ok";
}

function sandboxOf(confinement: CommandConfinement): LedgerCommand["sandbox"] {
  if (confinement.kind === "sandboxed") return "sandboxed";
  return confinement.kind === "outside" ? "outside" : "unconfined";
}

/** As the model and the person know it (relative, `folder/…` in another workspace folder); absolute when the file lies outside. */
function workspacePath(roots: WorkspaceRoots, path: string): string {
  try {
    return roots.shown(locate(roots, path));
  } catch {
    return path; // ambiguous now (an entry named like a folder appeared since the write): kept as written
  }
}

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url.trim()).host || undefined;
  } catch {
    return undefined;
  }
}
