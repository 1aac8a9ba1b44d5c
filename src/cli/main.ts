/**
 * `tandem`: the agent without an editor. Runs one task in a folder (or resumes a saved one),
 * prints its messages, asks approvals on the terminal (unless --yolo), and exits 0 when the task
 * completes. Exit codes: `exit-codes.ts`.
 */
import { realpath, stat } from "node:fs/promises";
import { createInterface, type Interface } from "node:readline/promises";
import { buildApiHandler } from "../api";
import { Controller } from "../core/controller";
import { fixedSettings } from "../core/controller/settings-source";
import { gitCheckpoints } from "../core/checkpoints/checkpoint-service";
import { runCheckpointsCommand } from "./checkpoints-command";
import { removeLeftoverTempFiles } from "../core/storage/leftover-temp-files";
import { TaskHistory } from "../core/storage/task-history";
import { errorText } from "../core/util/error-text";
import { NodeHost } from "../host/node/node-host";
import { CommandSandbox } from "../core/sandbox/command-sandbox";
import { McpServerConfiner } from "../core/sandbox/mcp-server-confiner";
import { describeSandbox } from "../shared/sandbox-status";
import type { AskMessage } from "../shared/messages";
import { DEFAULT_AUTO_APPROVAL } from "../shared/settings";
import { Answerer } from "./answers";
import { parseCliArgs, USAGE, type CliOptions } from "./args";
import { refusalHint, unattendedNote } from "./auto-approve";
import { EXIT, EXIT_FOR_OUTCOME } from "./exit-codes";
import { startMcpHub } from "./mcp-servers";
import { CliPrinter } from "./printer";
import { findSavedTask, formatTaskList, privateStorageFor, storageRootFor } from "./saved-tasks";
import { globalHooksFolder, globalRulesFolder, globalWorkflowsFolder, tandemDataFolder } from "../core/storage/paths";
import { TerminalScreen } from "./terminal-screen";

/** A problem with what the person asked for: reported with exit code 64. */
class UsageError extends Error {}

const note = (text: string) => process.stderr.write(`${text}\n`);

async function main(): Promise<number> {
  let cli: CliOptions;
  try {
    const options = parseCliArgs(process.argv.slice(2), process.env);
    if (options === "help") {
      process.stdout.write(`${USAGE}\n`);
      return EXIT.completed;
    }
    cli = { ...options, cwd: await workspaceFolder(options.cwd) };
    if (cli.mcp.kind === "on" && cli.mcp.configFile) await mcpConfigFile(cli.mcp.configFile);
  } catch (error) {
    const usage = error instanceof UsageError ? "" : `\n\n${USAGE}`;
    note(`tandem: ${errorText(error)}${usage}`);
    return EXIT.usage;
  }
  const storageRoot = storageRootFor(cli.storage, cli.cwd, process.env);
  void removeLeftoverTempFiles([cli.cwd, storageRoot]); // what a killed run left (never rejects)
  const history = storageRoot ? new TaskHistory(storageRoot, (error) => note(`tandem: ${errorText(error)}`)) : undefined;
  if (cli.action.kind === "list") {
    const items = history ? await history.list() : [];
    if (cli.json) for (const item of items) process.stdout.write(`${JSON.stringify(item)}\n`);
    else process.stdout.write(`${formatTaskList(items, cli.cwd, storageRoot ?? "")}\n`);
    return EXIT.completed;
  }
  if (cli.action.kind === "checkpoints_list" || cli.action.kind === "checkpoints_restore") {
    try {
      if (!history || !storageRoot) throw new Error("Checkpoints need saved tasks: leave out --no-storage.");
      await runCheckpointsCommand(cli.action, { history, storageRoot, service: gitCheckpoints(storageRoot, () => cli.cwd), print: (text) => process.stdout.write(`${text}\n`) });
      return EXIT.completed;
    } catch (error) {
      note(`tandem: ${errorText(error)}`);
      return EXIT.failed;
    }
  }
  let resumeId: string | undefined;
  if (cli.action.kind === "resume") {
    try {
      if (!history || !storageRoot) throw new Error("Tasks are not saved in this run, so none can be resumed.");
      const item = await findSavedTask(history, cli.action.taskId, storageRoot);
      resumeId = item.id;
      // Unattended, a completed task would only accept its result again: there is nothing to do.
      if (item.status === "completed" && !cli.action.message && !willAsk(cli)) {
        note(`tandem: task ${item.id} is completed. To reply to it, add a message: tandem --resume ${item.id} "…"`);
        return EXIT.completed;
      }
    } catch (error) {
      note(`tandem: ${errorText(error)}`);
      return EXIT.usage;
    }
  }
  return runTask(cli, { storageRoot, history, resumeId });
}

async function runTask(cli: CliOptions, saved: { storageRoot?: string; history?: TaskHistory; resumeId?: string }): Promise<number> {
  const prompt = willAsk(cli) ? createInterface({ input: process.stdin, output: process.stderr }) : undefined;
  const screen = prompt && new TerminalScreen(prompt, process.stdout, process.stderr);
  const printer = new CliPrinter(screen ?? process.stdout, cli.json);
  if (!prompt && !cli.yolo) note(unattendedNote(cli.autoApproval));

  let refused: AskMessage | undefined;
  const answerer = new Answerer({
    screen,
    yolo: cli.yolo,
    resumeMessage: cli.action.kind === "resume" ? cli.action.message : undefined,
    row: (id) => {
      const message = controller.messages.find((m) => m.ts === id);
      return message?.type === "ask" ? message : undefined;
    },
    answer: (questionId, response) => controller.answer(questionId, response),
    note,
    onRefused: (message) => {
      refused ??= message;
      note(`tandem: ${describeAsk(message)} needs approval, and nobody is at a terminal to give it. ${refusalHint(message, cli.yolo)}`);
      // Stopped rather than left to the model: a run that did not do its work must not exit 0.
      void controller.cancelTask();
    },
  });
  // Before the task, so the start line says how commands will run.
  const sandbox = CommandSandbox.create(cli.sandbox, { privateStorage: privateStorageFor(saved.storageRoot, process.env), probeWhenNeeded: true });
  note(describeSandbox(await sandbox.ready(), "--sandbox"));
  // Started, not awaited: servers connect while the task starts; each request waits for them at most 10 s.
  const mcp = startMcpHub(cli.mcp, cli.cwd, process.env, note, new McpServerConfiner(sandbox));
  const controller: Controller = new Controller({
    host: new NodeHost(cli.cwd, { notify: (level, text) => note(`${level}: ${text}`) }),
    sandbox,
    mcp,
    createApiHandler: buildApiHandler,
    settings: fixedSettings(cli.api, {
      yolo: cli.yolo,
      toolCallMode: cli.toolCallMode,
      autoApproval: { ...DEFAULT_AUTO_APPROVAL, ...cli.autoApproval },
      sandbox: cli.sandbox,
      checkpoints: cli.checkpoints,
      customInstructions: cli.customInstructions,
      focusChain: cli.focusChain,
      autoCondense: cli.autoCondense,
      defaultMode: cli.mode ?? "act",
    }),
    rules: { globalFolder: globalRulesFolder(tandemDataFolder(process.env)), files: cli.rules },
    workflows: { globalFolder: globalWorkflowsFolder(tandemDataFolder(process.env)) },
    hooks: { globalFolder: globalHooksFolder(tandemDataFolder(process.env)), trustWorkspace: () => cli.trustWorkspace, trustHint: "Run with --trust-workspace to run them." },
    // Kept with the task histories; a run that saves no history keeps no checkpoints either.
    checkpoints: saved.storageRoot ? gitCheckpoints(saved.storageRoot, () => cli.cwd) : undefined,
    storageRoot: saved.storageRoot,
    history: saved.history,
  });
  controller.events.onDidChangeChat((change) => {
    if (change.kind !== "added" && change.kind !== "updated") return;
    printer.show(change.message);
    answerer.seen(change.message);
  });
  // As the panel does: the host says which question is open, and the answerer answers that one.
  controller.events.onDidChangeQuestion((question) => answerer.questionChanged(question));
  const stopInterrupts = onInterrupt(prompt, () => void controller.cancelTask());

  try {
    if (saved.resumeId) {
      note(`Resuming task ${saved.resumeId}.`);
      await controller.resumeTask(saved.resumeId, { mode: cli.mode });
    } else if (cli.action.kind === "new") {
      await controller.newTask(cli.action.task);
    }
    const outcome = (await controller.waitForTask()) ?? "failed";
    const planned = outcome === "completed" && controller.mode === "plan" ? controller.currentTask?.taskId : undefined;
    await controller.dispose();
    if (planned && saved.storageRoot) note(`To carry out the plan: tandem --resume ${planned} --act "Go ahead"`);
    return refused ? EXIT.needsApproval : EXIT_FOR_OUTCOME[outcome];
  } catch (error) {
    note(`tandem: ${errorText(error)}`);
    return EXIT.failed;
  } finally {
    stopInterrupts();
    prompt?.close();
    // Every server's process group is signalled; no server outlives the run.
    await mcp?.shutdown();
    await sandbox.dispose();
  }
}

/** Whether the person at a terminal is asked; otherwise questions get the unattended answers. */
function willAsk(cli: CliOptions): boolean {
  return Boolean(process.stdin.isTTY) && !cli.yolo;
}

/** The resolved, real path of the workspace; a missing folder is the person's mistake. */
async function workspaceFolder(path: string): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new UsageError(`--cwd ${path}: no such folder.`);
  if (!info.isDirectory()) throw new UsageError(`--cwd ${path}: not a folder.`);
  return realpath(path);
}

/** A --mcp-config the person named must be there (a missing default file only means no servers). */
async function mcpConfigFile(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) throw new UsageError(`--mcp-config ${path}: no such file.`);
}

/**
 * Ctrl-C cancels the task, twice quits at once. At a terminal readline takes the keys (raw mode),
 * so it is the prompt that reports Ctrl-C (and Ctrl-D, the person leaving).
 */
function onInterrupt(prompt: Interface | undefined, cancel: () => void): () => void {
  let interrupted = false;
  let closing = false;
  const interrupt = () => {
    if (interrupted) process.exit(EXIT.cancelled);
    interrupted = true;
    note("\nCancelling… (Ctrl-C again to quit at once)");
    cancel();
  };
  process.on("SIGINT", interrupt);
  prompt?.on("SIGINT", interrupt);
  prompt?.on("close", () => closing || interrupt());
  return () => {
    closing = true;
    process.off("SIGINT", interrupt);
  };
}

function describeAsk(message: AskMessage): string {
  if (message.ask === "command") return `The command "${message.text ?? ""}"`;
  const mcp = message.tool?.mcp;
  if (mcp) return `${message.tool?.tool ?? "An MCP tool"} ${mcp.server}/${mcp.tool ?? mcp.uri ?? ""}`;
  return [message.tool?.tool ?? "A tool", message.tool?.path].filter(Boolean).join(" ");
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`tandem: ${String(error)}\n`);
    process.exit(EXIT.failed);
  },
);
