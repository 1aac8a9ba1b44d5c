/**
 * Puts one question to the person at the terminal and turns the reply into an answer. Returns
 * "wait" when the person chose to let a running command go on while the task waits for it (the
 * question stays open until the command ends). The signal ends the prompt: the task withdrew
 * the question, or it was answered some other way.
 */
import type { AskMessage, AskResponse } from "../shared/messages";
import type { TerminalScreen } from "./terminal-screen";

export type TerminalReply = AskResponse | "wait";

export async function askOnTerminal(screen: TerminalScreen, message: AskMessage, signal: AbortSignal): Promise<TerminalReply> {
  const read = async (question: string) => (await screen.question(question, signal)).trim();
  switch (message.ask) {
    case "completion_result": {
      const reply = await read("Done? Press Enter to finish, or type feedback: ");
      return reply ? { type: "message", text: reply } : { type: "yes" };
    }
    case "followup":
      return { type: "message", text: await read("> ") };
    case "command_output":
      return commandOutputChoice(read);
    case "mistake_limit_reached": {
      const reply = await read("Type guidance to continue, or [n]o to stop: ");
      return reply === "" || isNo(reply) ? { type: "no" } : { type: "message", text: reply };
    }
    case "spend_limit_reached":
      return spendLimitChoice(read);
    case "api_req_failed":
      return isYes(await read("Retry? [y]es / [n]o: ")) ? { type: "yes" } : { type: "no" };
    case "command":
      if (isResultsCommand(message)) {
        // The result's demo: skipping it only skips it; words are a reply to the result.
        const reply = await read("Run it? [y]es / Enter to skip / or type a reply to the result: ");
        if (isYes(reply)) return { type: "yes" };
        return reply === "" || isNo(reply) ? { type: "no" } : { type: "no", text: reply };
      }
      return approval(read, "Approve?");
    default:
      return approval(read, message.ask === "new_task" ? "Start a new task with this context?" : "Approve?");
  }
}

/** The command attempt_completion suggests to show its result (not work the task needs). */
export function isResultsCommand(message: AskMessage | { tool?: { tool: string } }): boolean {
  return message.tool?.tool === "attempt_completion";
}

async function approval(read: (question: string) => Promise<string>, question: string): Promise<AskResponse> {
  const reply = await read(`${question} [y]es / [n]o / or type feedback to say no: `);
  if (isYes(reply)) return { type: "yes" };
  return reply === "" || isNo(reply) ? { type: "no" } : { type: "no", text: reply };
}

/** At a spending cap: one more request, the caps doubled for this task, or stop. */
async function spendLimitChoice(read: (question: string) => Promise<string>): Promise<AskResponse> {
  for (;;) {
    const reply = (await read("[c]ontinue once / [r]aise the cap (doubled) / [s]top: ")).toLowerCase();
    if (/^c(ontinue)?$/.test(reply)) return { type: "yes" };
    if (/^r(aise)?$/.test(reply)) return { type: "yes", choice: "raise" };
    if (reply === "" || /^s(top)?$/.test(reply) || isNo(reply)) return { type: "no" };
  }
}

/** The three things one can do about a command that is still running. */
async function commandOutputChoice(read: (question: string) => Promise<string>): Promise<TerminalReply> {
  for (;;) {
    const reply = (await read("[w]ait for it (Enter) / let it run in the [b]ackground and go on / [s]top it: ")).toLowerCase();
    if (reply === "" || /^w(ait)?$/.test(reply)) return "wait";
    if (/^b(ackground)?$/.test(reply)) return { type: "yes" };
    if (/^s(top)?$/.test(reply)) return { type: "no" };
  }
}

const isYes = (reply: string) => /^y(es)?$/i.test(reply);
const isNo = (reply: string) => /^no?$/i.test(reply);
