/**
 * The agent's side of `tandem` (dist/cli-main.js): runs one task in a folder (or resumes a saved
 * one), prints its messages, asks approvals on the terminal (unless --yolo), or lists what was
 * asked for. The command line was read and checked before (launcher.ts), so this bundle loads
 * only when there is work for the agent. Exit codes: `exit-codes.ts`.
 */
import { createInterface, type Interface } from "node:readline/promises";
import { buildApiHandler } from "../api";
import { Controller } from "../core/controller";
import { trustHooksAsFound } from "../core/hooks";
import { trustSkillsAsFound } from "../core/skills/trust";
import { fixedSettings } from "../core/controller/settings-source";
import { gitCheckpoints } from "../core/checkpoints/checkpoint-service";
import { listedModelInfo, modelListCache } from "./models-command";
import { removeLeftoverTempFiles } from "../core/storage/leftover-temp-files";
import { TaskHistory } from "../core/storage/task-history";
import { TaskStorage } from "../core/storage/task-storage";
import { describeRestore } from "../core/controller/checkpoints";
import { TaskDigests } from "../core/history/task-digests";
import { errorText } from "../core/util/error-text";
import { NodeHost } from "../host/node/node-host";
import { CommandSandbox } from "../core/sandbox/command-sandbox";
import { McpServerConfiner } from "../core/sandbox/mcp-server-confiner";
import { checkpointNumber } from "../shared/checkpoints";
import { describeSandbox } from "../shared/sandbox-status";
import type { AskMessage } from "../shared/messages";
import type { Notice } from "../shared/notice";
import { DEFAULT_AUTO_APPROVAL } from "../shared/settings";
import { Answerer, refusalHint } from "./answers";
import type { CliOptions } from "./args";
import { unattendedNote } from "./auto-approve";
import { EXIT, EXIT_FOR_OUTCOME } from "./exit-codes";
import { startMcpHub } from "./mcp-servers";
import { CliPrinter } from "./printer";
import { findSavedTask, personMessage, privateStorageFor, storageRootFor } from "./saved-tasks";
import { checkpointsFolder, globalHooksFolder, globalRulesFolder, globalSkillsFolder, globalWorkflowsFolder, tandemDataFolder } from "../core/storage/paths";
import { NotifyCommand } from "./notify-command";
import { TerminalAttention } from "./terminal-attention";
import { TerminalScreen } from "./terminal-screen";
import { visibleText } from "./visible-text";

/** Notes name commands, paths and errors a model or server chose: control characters show, never act. */
const note = (text: string) => process.stderr.write(`${visibleText(text)}\n`);

/** Does what the checked command line `cli` asks; gives the exit code. */
export async function runCli(cli: CliOptions): Promise<number> {
  const storageRoot = storageRootFor(cli.storage, cli.cwd, process.env);
  // What a killed run left (never rejects).
  void removeLeftoverTempFiles([cli.cwd, ...cli.roots, storageRoot], { skip: storageRoot ? [checkpointsFolder(storageRoot)] : [] });
  const history = storageRoot ? new TaskHistory(storageRoot, (error) => note(`tandem: ${errorText(error)}`)) : undefined;
  // The conversation's searchable digest is kept as the task runs (History's search and --search).
  const digests = storageRoot ? new TaskDigests(storageRoot, (error) => note(`tandem: ${errorText(error)}`)) : undefined;
  let resumeId: string | undefined;
  let editTs: number | undefined;
  if (cli.action.kind === "resume") {
    try {
      if (!history || !storageRoot) throw new Error("Tasks are not saved in this run, so none can be resumed.");
      const item = await findSavedTask(history, cli.action.taskId, storageRoot);
      resumeId = item.id;
      if (cli.action.from !== undefined) editTs = personMessage(await new TaskStorage(storageRoot, item.id).loadChatMessages(), cli.action.from).ts;
      // Unattended, a completed task would only accept its result again: there is nothing to do.
      if (item.status === "completed" && !cli.action.message && !willAsk(cli) && editTs === undefined) {
        note(`tandem: task ${item.id} is completed. To reply to it, add a message: tandem --resume ${item.id} "…"`);
        return EXIT.completed;
      }
    } catch (error) {
      note(`tandem: ${errorText(error)}`);
      return EXIT.usage;
    }
  }
  return runTask(cli, { storageRoot, history, digests, resumeId, editTs });
}

/** For a provider whose server lists its models (Ollama, LM Studio, OpenRouter): the model's window and prices from that list. */
async function withListedModel(api: CliOptions["api"]): Promise<CliOptions["api"]> {
  const listedModel = await listedModelInfo(api, modelListCache(tandemDataFolder(process.env)), note);
  return listedModel ? { ...api, listedModel } : api;
}

interface SavedTasks {
  storageRoot?: string;
  history?: TaskHistory;
  digests?: TaskDigests;
  resumeId?: string;
  /** With --from: the person's message the resumed task goes on from, edited. */
  editTs?: number;
}

/** What the index and the digests still had to write, on disk before the process exits. */
async function flushSaved(saved: SavedTasks): Promise<void> {
  await saved.history?.flush();
  await saved.digests?.flush();
}

async function runTask(cli: CliOptions, saved: SavedTasks): Promise<number> {
  const prompt = willAsk(cli) ? createInterface({ input: process.stdin, output: process.stderr }) : undefined;
  const screen = prompt && new TerminalScreen(prompt, process.stdout, process.stderr);
  const printer = new CliPrinter(screen ?? process.stdout, cli.json, (ts) => checkpointNumber(controller.messages, ts));
  if (!prompt && !cli.yolo) note(unattendedNote(cli.autoApproval));

  const { attention, notify } = notifications(cli);
  let refused: AskMessage | undefined;
  const answerer = new Answerer({
    screen,
    yolo: cli.yolo,
    // With --from the message is the edit itself, not an answer to the resumed task's question.
    resumeMessage: cli.action.kind === "resume" && cli.action.from === undefined ? cli.action.message : undefined,
    row: (id) => {
      const message = controller.messages.find((m) => m.ts === id);
      return message?.type === "ask" ? message : undefined;
    },
    answer: (questionId, response) => controller.answer(questionId, response),
    asking: (id) => attention.asking(id),
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
  const host = new NodeHost(cli.cwd, { extraRoots: cli.roots, notify: (level, text) => note(`${level}: ${text}`) });
  const mcp = startMcpHub(cli.mcp, host.workspace.roots.map((root) => root.path), process.env, note, new McpServerConfiner(sandbox));
  const controller: Controller = new Controller({
    host,
    sandbox,
    mcp,
    createApiHandler: buildApiHandler,
    settings: fixedSettings(await withListedModel(cli.api), {
      yolo: cli.yolo,
      toolCallMode: cli.toolCallMode,
      autoApproval: { ...DEFAULT_AUTO_APPROVAL, ...cli.autoApproval },
      commandAllowList: cli.commandAllowList,
      sandbox: cli.sandbox,
      checkpoints: cli.checkpoints,
      customInstructions: cli.customInstructions,
      focusChain: cli.focusChain,
      autoCondense: cli.autoCondense,
      defaultMode: cli.mode ?? "act",
      ...cli.spendCaps,
    }),
    rules: { globalFolder: globalRulesFolder(tandemDataFolder(process.env)), files: cli.rules },
    workflows: { globalFolder: globalWorkflowsFolder(tandemDataFolder(process.env)) },
    hooks: {
      globalFolder: globalHooksFolder(tandemDataFolder(process.env)),
      // The hooks as the run finds them: one the model adds or rewrites is not trusted.
      trustWorkspace: cli.trustWorkspace ? await trustHooksAsFound([cli.cwd, ...cli.roots]) : () => false,
      trustHint: cli.trustWorkspace
        ? "--trust-workspace trusts the hooks as they were when the run started; one added or changed since does not run."
        : "Run with --trust-workspace to run them.",
    },
    skills: {
      globalFolder: globalSkillsFolder(tandemDataFolder(process.env)),
      // As the hooks: a repository's skills as the run finds them; one the model adds or rewrites is not trusted.
      trustWorkspace: cli.trustWorkspace ? await trustSkillsAsFound([cli.cwd, ...cli.roots]) : () => false,
      trustHint: cli.trustWorkspace
        ? "--trust-workspace trusts the skills as they were when the run started; one added or changed since is not offered."
        : "Run with --trust-workspace to use them.",
    },
    // Kept with the task histories; a run that saves no history keeps no checkpoints either.
    checkpoints: saved.storageRoot ? gitCheckpoints(saved.storageRoot, () => host.workspace.roots) : undefined,
    storageRoot: saved.storageRoot,
    history: saved.history,
    digests: saved.digests,
  });
  controller.events.onDidChangeChat((change) => {
    if (change.kind !== "added" && change.kind !== "updated") return;
    printer.show(change.message);
    answerer.seen(change.message);
  });
  // As the panel does: the host says which question is open, and the answerer answers that one.
  controller.events.onDidChangeQuestion((question) => answerer.questionChanged(question));
  controller.events.onDidNeedAttention((notice) => attention.notice(notice));
  const stopInterrupts = onInterrupt(prompt, () => void controller.cancelTask());

  try {
    await startWork(controller, cli, saved);
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
    // The task's end was notified just before: its command (bounded) finishes before the run does.
    await notify?.settled();
    // Every server's process group is signalled; no server outlives the run.
    await mcp?.shutdown();
    await sandbox.dispose();
    await flushSaved(saved);
  }
}

/** The bell (when stderr is a terminal) and the --notify command, at the notifications the person should hear. */
function notifications(cli: CliOptions): { attention: TerminalAttention; notify?: NotifyCommand } {
  const notify = cli.notify === undefined ? undefined : new NotifyCommand(cli.notify, { cwd: cli.cwd, note });
  const attention = new TerminalAttention({
    ...(process.stderr.isTTY ? { bell: () => process.stderr.write("\x07") } : {}),
    ...(notify ? { command: (notice: Notice) => notify.run(notice) } : {}),
  });
  return { attention, ...(notify ? { notify } : {}) };
}

/** Starts what the command line asks: a new task, a saved one again, or one from an edited message. */
async function startWork(controller: Controller, cli: CliOptions, saved: SavedTasks): Promise<void> {
  const { action } = cli;
  if (saved.resumeId && saved.editTs !== undefined && action.kind === "resume") {
    note(`Resuming task ${saved.resumeId} from your message ${action.from}, edited.`);
    const files = await controller.editMessage(saved.resumeId, saved.editTs, { text: action.message ?? "", images: [], restoreFiles: !action.keepFiles });
    if (files) note(describeRestore(files));
  } else if (saved.resumeId) {
    note(`Resuming task ${saved.resumeId}.`);
    await controller.resumeTask(saved.resumeId, { mode: cli.mode });
  } else if (action.kind === "new") {
    await controller.newTask(action.task);
  }
}

/** Whether the person at a terminal is asked; otherwise questions get the unattended answers. */
function willAsk(cli: CliOptions): boolean {
  return Boolean(process.stdin.isTTY) && !cli.yolo;
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
