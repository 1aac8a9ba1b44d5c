#!/usr/bin/env node
/**
 * `tandem`: the agent without an editor. Runs one task in a folder, prints its messages, asks
 * approvals on the terminal (unless --yolo), and exits 0 when the task completes.
 */
import { createInterface } from "node:readline/promises";
import { buildApiHandler } from "../api";
import { Controller } from "../core/controller";
import type { TaskOutcome } from "../core/task";
import { NodeHost } from "../host/node/node-host";
import type { AskMessage, AskResponse, ChatMessage } from "../shared/messages";
import { parseCliArgs, USAGE, type CliOptions } from "./args";
import { CliPrinter } from "./printer";

const EXIT_CODES: Record<TaskOutcome, number> = { completed: 0, failed: 1, mistake_limit: 2, aborted: 130 };

async function main(): Promise<number> {
  let options: CliOptions | "help";
  try {
    options = parseCliArgs(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`tandem: ${(error as Error).message}\n\n${USAGE}\n`);
    return 64;
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const cli = options;
  const printer = new CliPrinter(process.stdout, cli.json);
  const interactive = Boolean(process.stdin.isTTY) && !cli.yolo;
  const prompt = interactive ? createInterface({ input: process.stdin, output: process.stderr }) : undefined;

  const onMessage = (message: ChatMessage) => {
    printer.show(message);
    if (message.type === "ask" && !message.partial) void answer(message);
  };
  const controller: Controller = new Controller({
    host: new NodeHost(cli.cwd, (level, text) => process.stderr.write(`${level}: ${text}\n`)),
    apiConfiguration: cli.api,
    createApiHandler: buildApiHandler,
    settings: { yolo: cli.yolo, toolCallMode: cli.toolCallMode },
    storageRoot: cli.storageDir,
    listener: {
      onMessageAdded: onMessage,
      onMessageUpdated: onMessage,
      onMessagesRemoved: () => {},
      onTaskChanged: () => {},
      onTaskFinished: () => {},
    },
  });

  async function answer(message: AskMessage): Promise<void> {
    const response = prompt ? await askOnTerminal(prompt, message) : answerUnattended(message);
    controller.answer(response);
  }

  let interrupted = false;
  process.on("SIGINT", () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write("\nCancelling… (Ctrl-C again to quit at once)\n");
    void controller.cancelTask();
  });

  try {
    await controller.newTask(cli.task);
    const outcome = (await controller.waitForTask()) ?? "failed";
    await controller.dispose();
    return EXIT_CODES[outcome];
  } catch (error) {
    process.stderr.write(`tandem: ${(error as Error).message}\n`);
    return 1;
  } finally {
    prompt?.close();
  }
}

/** Without a person at the keyboard: finish on completion, stop on failure, let the model decide questions. */
function answerUnattended(message: AskMessage): AskResponse {
  switch (message.ask) {
    case "completion_result":
      return { type: "yes" };
    case "followup":
      return { type: "message", text: "No one is at the keyboard (unattended run). Decide yourself and continue." };
    case "tool":
    case "command":
      return { type: "no", text: "Not approved: unattended run without --yolo." };
    default:
      return { type: "no" };
  }
}

async function askOnTerminal(prompt: ReturnType<typeof createInterface>, message: AskMessage): Promise<AskResponse> {
  if (message.ask === "completion_result") {
    const reply = (await prompt.question("Done? Press Enter to finish, or type feedback: ")).trim();
    return reply ? { type: "message", text: reply } : { type: "yes" };
  }
  if (message.ask === "followup") {
    return { type: "message", text: (await prompt.question("> ")).trim() };
  }
  const guidance = message.ask === "mistake_limit_reached";
  const reply = (await prompt.question(guidance ? "Type guidance to continue, or [n]o to stop: " : "[y]es / [n]o / or type feedback to reject: ")).trim();
  if (/^y(es)?$/i.test(reply)) return { type: "yes" };
  if (reply === "" || /^no?$/i.test(reply)) return { type: "no" };
  return guidance ? { type: "message", text: reply } : { type: "no", text: reply };
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`tandem: ${String(error)}\n`);
    process.exit(1);
  },
);
