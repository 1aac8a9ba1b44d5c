/**
 * execute_command: runs one shell command line in the workspace after approval, streams its
 * output to the chat, and gives the model the exit code and the output (head and tail when it is
 * long). A command still running after a few seconds may be left running in the background at
 * the person's word; a timeout or a cancelled task kills it with everything it started.
 */
import type { CommandExit } from "../../../host/bridge";
import type { CommandEnd, CommandRunInfo, SandboxBlock } from "../../../shared/command-run";
import type { TaskCommand } from "../../sandbox/task-commands";
import type { AskResponse } from "../../../shared/messages";
import { DEFAULT_OUTPUT_LIMITS, OutputBuffer, type OutputLimits } from "./output-buffer";
import { param } from "./params";
import { defineTool, type ToolContext, type ToolDefinition, type ToolResult } from "./types";
import { errorText } from "../../util/error-text";

export interface ExecuteCommandOptions {
  /** How long a command runs before the person is offered to let it go on in the background. */
  readonly proceedPromptAfterMs: number;
  /** How often streamed output updates the chat while the model waits for the command. */
  readonly chatUpdateMs: number;
  /** How often output of a command left running in the background is added to the chat. */
  readonly backgroundUpdateMs: number;
  /** How much output the model (and each chat message) gets. */
  readonly limits: OutputLimits;
}

export const DEFAULT_EXECUTE_COMMAND_OPTIONS: Readonly<ExecuteCommandOptions> = {
  proceedPromptAfterMs: 3_000,
  chatUpdateMs: 250,
  backgroundUpdateMs: 1_000,
  limits: DEFAULT_OUTPUT_LIMITS,
};

/** A day: longer is surely a mistake, and a server that should run for ever needs no timeout. */
const MAX_TIMEOUT_SECONDS = 86_400;

export function createExecuteCommandTool(overrides: Partial<ExecuteCommandOptions> = {}): ToolDefinition {
  const options = { ...DEFAULT_EXECUTE_COMMAND_OPTIONS, ...overrides };
  return defineTool({
    name: "execute_command",
    description:
      "Run a command line in the person's shell, in the working directory. Use it for builds, tests, package managers, git and " +
      "other terminal work. Give one command line; to work elsewhere, change directory inside it (`cd web && npm test`), and chain " +
      "steps with `&&`. Nobody can type into the command (its input is closed), so use non-interactive flags such as `--yes` or " +
      "`--no-pager`. Long-running commands such as dev servers are fine: if one is still running after a few seconds, the person " +
      "may let it go on in the background: you get its output so far, and its later output with your next messages. You get the exit code and the output; very long output " +
      "keeps its beginning and its end. A failing command is a normal result: read its output and act on it.",
    params: [
      param.text("command", "The command line to run, valid for the person's shell and operating system.", { required: true }),
      param.boolean(
        "requires_approval",
        "true when the command changes things the person should confirm (installs or removes packages, deletes or overwrites files, " +
          "pushes, changes system settings); false for commands that only read, build or test.",
      ),
      param.number("timeout", "Seconds after which the command and everything it started are stopped. Default: no limit (leave it out for servers).", {
        above: 0,
        max: MAX_TIMEOUT_SECONDS,
        unit: "seconds",
      }),
      param.choice(
        "sandbox",
        'Leave it out: commands run inside the OS sandbox when Tandem has one. "off" runs this command outside it, with the person\'s full access: ' +
          "only after a sandboxed run was blocked from something the task truly needs; the person is asked first.",
        ["on", "off"],
      ),
    ],
    readOnly: false,
    approval: "command",
    example: "<execute_command>\n<command>npm test</command>\n<requires_approval>false</requires_approval>\n</execute_command>",
    async prepare(params, ctx) {
      const command = params.command.trim();
      const outsideSandbox = params.sandbox === "off" && ctx.commands.sandbox?.active === true;
      return {
        approval: {
          command,
          message: {
            tool: "execute_command",
            content: command,
            ...(outsideSandbox ? { outsideSandbox: true } : {}),
            confinement: ctx.commands.confinement(outsideSandbox),
          },
          requiresApproval: params.requires_approval,
          shell: ctx.host.terminal.shell,
          ...(outsideSandbox ? { outsideSandbox: true } : {}),
        },
        run: () => runCommand(command, ctx, options, { timeoutSeconds: params.timeout, outsideSandbox }),
      };
    },
  });
}

export const executeCommandTool = createExecuteCommandTool();

/** How the tool's wait for the command ended. */
type Ending =
  | { readonly kind: "exited"; readonly exit: CommandExit }
  | { readonly kind: "background"; readonly feedback?: string }
  | { readonly kind: "stopped_by_person"; readonly exit: CommandExit };

async function runCommand(
  command: string,
  ctx: ToolContext,
  options: ExecuteCommandOptions,
  run: { timeoutSeconds?: number; outsideSandbox: boolean },
): Promise<ToolResult> {
  const { timeoutSeconds } = run;
  const timeoutMs = timeoutSeconds === undefined ? undefined : Math.ceil(timeoutSeconds * 1000);
  const running = ctx.commands.run(command, { cwd: ctx.roots.primary.path, timeoutMs, signal: ctx.signal, outsideSandbox: run.outsideSandbox });
  const forModel = new OutputBuffer(options.limits);
  const chat = new ChatOutput(ctx, options, { confinement: running.confinement });
  // Until the person lets the command go on in the background; then its news waits for the next request.
  let feed: { append(text: string): void } = forModel;
  running.onOutput((text) => {
    feed.append(text);
    chat.append(text);
  });

  let ending: Ending;
  try {
    ending = await waitForEnding(command, running, ctx, chat, options);
  } catch (error) {
    running.kill();
    throw error;
  }
  if (ending.kind === "background") {
    const later = ctx.background.watch(command);
    feed = later;
    void running.completion.then((exit) => later.end(describeExit(exit, timeoutSeconds)));
    await chat.end({ kind: "background" });
    chat.continueInBackground(command, running, timeoutSeconds);
    const result = ok(`${backgroundNote()}\n${describeOutput(forModel)}`);
    return withFeedback(result, "The person's message while the command was running:", ending.feedback);
  }
  const head = ending.kind === "stopped_by_person" ? "The person stopped the command while it was running." : describeExit(ending.exit, timeoutSeconds);
  // One finding: the model reads it in words, the person's row gets it as data.
  const blocked = running.blocked(ending.exit, forModel.render());
  await chat.end(endOf(ending.exit, timeoutSeconds), blocked?.forPerson, running.hostsReached());
  return ok(`${head}\n${describeOutput(forModel)}${blocked ? `\n\n${blocked.forModel}` : ""}`);
}

/**
 * Waits for the command; after a while, also for the person's choice to go on without it.
 * The command ending first wins: the question is then moot (see the report on closing it).
 */
async function waitForEnding(
  command: string,
  running: TaskCommand,
  ctx: ToolContext,
  chat: ChatOutput,
  options: ExecuteCommandOptions,
): Promise<Ending> {
  const exited = running.completion.then((exit): Ending => ({ kind: "exited", exit }));
  let timer: NodeJS.Timeout | undefined;
  const promptDue = new Promise<"prompt">((resolve) => (timer = setTimeout(() => resolve("prompt"), options.proceedPromptAfterMs)));
  const first = await Promise.race([exited, promptDue]).finally(() => clearTimeout(timer));
  if (first !== "prompt") return first;

  // The question comes after the output so far, so that message is finished first.
  await chat.close();
  const withdraw = new AbortController();
  const question = ctx.ask("command_output", `${command} is still running`, { withdraw: withdraw.signal });
  const next = await Promise.race([exited, question.then((response) => ({ kind: "answer" as const, response }))]);
  // Ended first: the question is moot, so it is taken back.
  if (next.kind !== "answer") {
    withdraw.abort();
    await question;
    return next;
  }
  const answer: AskResponse = next.response;
  if (ctx.signal.aborted) return running.completion.then((exit) => ({ kind: "exited", exit }));
  if (answer.type === "no") {
    running.kill();
    return running.completion.then((exit) => ({ kind: "stopped_by_person", exit }));
  }
  if (answer.text || answer.images?.length) await ctx.say("user_feedback", answer.text, { images: answer.images });
  return { kind: "background", feedback: await ctx.withMentions(answer.text) };
}

function describeExit(exit: CommandExit, timeoutSeconds?: number): string {
  switch (exit.stoppedBy) {
    case "timeout":
      return `The command timed out after ${timeoutSeconds} s: it was stopped, together with every process it started.`;
    case "abort":
      return "The command was stopped because the task was cancelled.";
    case "kill":
      return "The command was stopped.";
    case null:
      if (exit.exitCode === 0) return "The command exited with code 0.";
      if (exit.exitCode !== null) return `The command failed with exit code ${exit.exitCode}.`;
      return `The command was ended by signal ${exit.signal ?? "(unknown)"}.`;
  }
}

/** How the command ended, for its row (the model's words are describeExit's). */
export function endOf(exit: CommandExit, timeoutSeconds?: number): CommandEnd {
  switch (exit.stoppedBy) {
    case "timeout":
      return { kind: "timeout", seconds: timeoutSeconds ?? 0 };
    case "abort":
      return { kind: "cancelled" };
    case "kill":
      return { kind: "killed" };
    case null:
      if (exit.exitCode !== null) return { kind: "exited", code: exit.exitCode };
      return { kind: "signal", signal: exit.signal ?? "unknown" };
  }
}

function backgroundNote(): string {
  return (
    "The command is still running in the background: the person chose to go on while it runs. " +
    "Its later output, and how it ends, come with the next messages you receive."
  );
}

function describeOutput(output: OutputBuffer): string {
  if (output.isBlank) return "Output: (none)";
  const hint =
    output.omittedLines > 0
      ? "\n(The middle of the output was left out. To see a part of it, run the command again through a filter such as grep, head or tail.)"
      : "";
  return `Output:\n${output.render()}${hint}`;
}

function ok(content: string): ToolResult {
  return { kind: "ok", content };
}

function withFeedback(result: ToolResult, lead: string, feedback: string | undefined): ToolResult {
  if (result.kind !== "ok" || typeof result.content !== "string" || !feedback) return result;
  return ok(`${result.content}\n\n${lead}\n<feedback>\n${feedback}\n</feedback>`);
}

/**
 * The chat's view of the output. While the model waits it is one message, updated in place at
 * most every `chatUpdateMs`. In the background each update is a message of its own with the new
 * output only, because other messages (the model's next answer) come in between.
 */
class ChatOutput {
  private view: OutputBuffer;
  private timer: NodeJS.Timeout | undefined;
  private changed = false;
  private background = false;
  /** A partial message of the current view is in the chat and must be finished. */
  private shown = false;
  /** The next final message is shown even without output: it says how the command ended. */
  private endDue = false;
  private sending: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly ctx: ToolContext,
    private readonly options: ExecuteCommandOptions,
    /** What every row of this run carries: its confinement, and at the end how it ended. */
    private run: CommandRunInfo,
  ) {
    this.view = new OutputBuffer(options.limits);
  }

  /** The command ended (or went on in the background): the last row, output or none, says how. */
  async end(end: CommandEnd, blocked?: readonly SandboxBlock[], hosts: readonly string[] = []): Promise<void> {
    this.run = { ...this.run, end, ...(blocked && blocked.length > 0 ? { blocked: [...blocked] } : {}), ...(hosts.length > 0 ? { hosts: [...hosts] } : {}) };
    this.endDue = true;
    await this.close();
    // Later rows (output in the background) are the run again, until its own end.
    this.run = { confinement: this.run.confinement, ...(this.run.background === undefined ? {} : { background: this.run.background }) };
  }

  append(text: string): void {
    this.view.append(text);
    this.changed = true;
    const interval = this.background ? this.options.backgroundUpdateMs : this.options.chatUpdateMs;
    this.timer ??= setTimeout(() => this.flush(), interval);
  }

  /** Finishes the current message; later output starts a new one. Throws a failed update. */
  async close(): Promise<void> {
    this.flush(true);
    await this.sending;
    if (this.failure !== undefined) throw this.failure;
  }

  /** From now on the model is not waiting: report output (and the end) on the side. */
  continueInBackground(command: string, running: Pick<TaskCommand, "completion" | "hostsReached">, timeoutSeconds?: number): void {
    this.flush(true);
    this.background = true;
    this.run = { ...this.run, background: command };
    const report = (error: unknown) =>
      this.ctx.host.window.notify("error", `Tandem: showing the output of "${command}" failed: ${errorText(error)}`);
    running.completion
      // Its last row names the command and says how it ended, and where it reached.
      .then((exit) => this.end(endOf(exit, timeoutSeconds), undefined, running.hostsReached()))
      .catch(report);
  }

  private flush(final = false): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ending = final && this.endDue;
    if (!this.changed && !(final && this.shown) && !ending) return;
    this.changed = false;
    const text = this.view.render();
    const partial = !final && !this.background;
    // Updated in place while streaming; a finished message (and every background one) starts afresh.
    if (!partial) this.view = new OutputBuffer(this.options.limits);
    if (!text && !this.shown && !ending) return;
    this.shown = partial;
    if (ending) this.endDue = false;
    const command = this.run;
    this.sending = this.sending.then(() => this.ctx.say("command_output", text, { partial, command })).catch((error: unknown) => {
      this.failure ??= error;
    });
  }
}
