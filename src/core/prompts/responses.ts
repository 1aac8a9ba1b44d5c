/**
 * The fixed texts the agent loop sends back to the model: tool errors, denials, reminders.
 * Kept in one place so their wording stays consistent with the system prompt.
 */
import type { ImageBlock, TextBlock } from "../../api/types";
import type { CutOff } from "../assistant-message/types";
import { imageBlockFromDataUrl } from "../util/image-block";

export type ToolCallMode = "xml" | "native";

const XML_FORMAT_RECAP = `Write the tool call as XML at the end of your message: the tool name is the outer tag and each parameter an inner tag.

<tool_name>
<parameter_name>value</parameter_name>
</tool_name>`;

const NATIVE_FORMAT_RECAP = "Call the tool through the function-calling interface, one tool per message.";

export const formatResponse = {
  /** The model answered with prose only. */
  /** `unknown`: call-shaped tags of the answer that name no tool, and the tools there are. */
  noToolsUsed(mode: ToolCallMode = "xml", unknown?: { readonly tags: readonly string[]; readonly tools: readonly string[] }): string {
    const named = unknown && unknown.tags.length > 0;
    const tags = unknown?.tags.map((tag) => `<${tag}>`).join(", ");
    return [
      named
        ? `[ERROR] Your last message used ${tags}, which ${unknown.tags.length === 1 ? "is not a tool" : "are not tools"} here, so nothing was run. The tools you have are: ${unknown.tools.join(", ")}. Every message must use exactly one of them.`
        : "[ERROR] Your last message did not use a tool. Every message must use exactly one tool.",
      mode === "xml" ? XML_FORMAT_RECAP : NATIVE_FORMAT_RECAP,
      "If the task is done, use attempt_completion to present the result. If you need information only the " +
        "person has, use ask_followup_question. Otherwise take the next step with the right tool.",
    ].join("\n\n");
  },

  toolError(message: string): string {
    return `The tool failed:\n<error>\n${message}\n</error>`;
  },

  missingParam(tool: string, param: string): string {
    return (
      `Missing value for the required parameter '${param}' of ${tool}. ` +
      "Try again with every required parameter given in full."
    );
  },

  toolBlockedByHook(tool: string, reason: string): string {
    return `The ${tool} call was not run: a PreToolUse hook (a check the person set up) blocked it. Its reason: ${reason}\nDo not try to get around the hook; do the work another way, or ask the person.`;
  },

  toolDenied(): string {
    return "The person denied this operation.";
  },

  toolDeniedWithFeedback(feedback: string): string {
    return `The person denied this operation and said:\n<feedback>\n${feedback}\n</feedback>`;
  },

  /** What the person typed with "Approve"; it follows the tool's result. */
  approvedWithNote(note: string): string {
    return `The person approved this tool call with a message:\n<feedback>\n${note}\n</feedback>`;
  },

  /** A tool's output, with the person's images (data URLs) when there are any. */
  toolResult(text: string, images?: readonly string[]): string | (TextBlock | ImageBlock)[] {
    if (images === undefined || images.length === 0) return text;
    return [{ type: "text", text }, ...images.map(imageBlockFromDataUrl)];
  },

  /** Sent when the person lets the task go on after the mistake limit was reached. */
  tooManyMistakes(feedback?: string): string {
    const guidance = feedback?.trim()
      ? `The person gave this guidance:\n<feedback>\n${feedback}\n</feedback>`
      : "Step back, look at what went wrong, and try a different approach.";
    return `You seem to be having trouble making progress: several steps in a row failed. ${guidance}`;
  },

  /** Opens the first round after a saved task is resumed. */
  taskResumption(feedback?: string): string {
    const note =
      "[TASK RESUMPTION] This task was interrupted and is now resumed. The conversation above is what happened " +
      "before; the workspace may have changed since. Check the current state before you go on, and do not " +
      "repeat steps that already succeeded.";
    return feedback?.trim() ? `${note}\n\nThe person added:\n<feedback>\n${feedback}\n</feedback>` : note;
  },

  /** Opens the first round after the person took the task back to a checkpoint. */
  taskRestored(filesRestored: boolean, feedback?: string): string {
    const files = filesRestored
      ? "The workspace's files were put back as they were at that step too."
      : "The files were NOT put back: the workspace may still hold changes made after that step.";
    const note =
      "[TASK RESTORED] The person took this task back to an earlier step: the conversation above ends there, and " +
      `what came after it is gone. ${files} Check the current state before you go on.`;
    return feedback?.trim() ? `${note}

The person added:
<feedback>
${feedback}
</feedback>` : note;
  },

  /** Opens the first round after the person replies to a task that had completed. */
  /** After the person went back to an earlier message and edited it, when the files changed after it stayed. */
  editedFilesKept(): string {
    return "[MESSAGE EDITED] The person went back to this point of the task and changed their message; what came after it is gone from the conversation. The files were NOT put back: the workspace may still hold changes made after this point. Check the current state before you go on.";
  },

  /** A task that ended on its approved plan, opened again: in Act mode to carry the plan out, in Plan mode to talk about it. */
  approvedPlanReply(mode: "plan" | "act", feedback: string): string {
    const note =
      mode === "act"
        ? "[PLAN APPROVED] The person approved your plan above and switched to Act mode: carry it out now, step by step, with your tools. The workspace may have changed since you explored it; check what a step depends on before you change it."
        : "[PLAN REOPENED] The person came back to your approved plan, still in Plan mode. Answer them, and present the plan again with plan_mode_respond if it changes.";
    return feedback.trim() ? `${note}\n<feedback>\n${feedback}\n</feedback>` : note;
  },

  completedTaskReply(feedback: string): string {
    return (
      "[TASK REOPENED] This task was completed and the person has opened it again to reply. The workspace may have changed " +
      `since. Act on their feedback, then use attempt_completion again.\n<feedback>\n${feedback}\n</feedback>`
    );
  },

  interruptedByUser(): string {
    return "[Response interrupted by user]";
  },

  interruptedByShutdown(): string {
    return "[Response interrupted: the editor closed or reloaded its window; the person did not cancel the task.]";
  },

  interruptedByToolRejection(): string {
    return "[Response interrupted: the person denied the tool above, so the rest of this message was not used.]";
  },

  onlyOneToolPerMessage(): string {
    return "This tool was not run: only one tool may be used per message. Wait for the result of the first one.";
  },

  contextTruncatedNote(): string {
    return "[Note: earlier parts of this conversation were removed to fit the context window. Re-read files if you need their current content.]";
  },

  /** A later tool in a message whose earlier tool the person denied. */
  toolSkippedAfterRejection(tool: string): string {
    return `${tool} was not run: the person denied an earlier tool in this message, so the rest of it was skipped.`;
  },

  /** A native tool call whose arguments could not be read as a JSON object. */
  invalidToolArguments(tool: string, detail: string): string {
    return (
      `The arguments of ${tool} could not be read (${detail}). ` +
      "Call it again with a JSON object whose values are all strings."
    );
  },

  /** Leads the person's reply to attempt_completion (the executor appends the <feedback>). */
  completionFeedback(): string {
    return "The person did not accept the result yet and replied. Act on their feedback, then use attempt_completion again.";
  },

  /** Appended to an answer whose stream broke after a tool had already run. */
  responseCutShort(reason: string): string {
    return `[Your response was cut short by an error (${reason}). Everything above it was kept; continue from the tool result.]`;
  },

  /**
   * A tool call the answer ended inside: it was not run. After the output limit, the model needs
   * to hear how to fit large work into several answers.
   */
  toolCutOff(tool: string, cutOff: CutOff): string {
    const what = cutOff.incompleteArguments
      ? `its arguments are not complete JSON`
      : `its closing tag </${tool}> never arrived${cutOff.unclosedParam ? ` (the <${cutOff.unclosedParam}> value was still open)` : ""}`;
    const lead = `The ${tool} call was cut off before it ended (${what}), so it was NOT run and nothing was changed.`;
    if (cutOff.reason === "max_tokens") {
      return (
        `${lead} Your answer hit the output token limit. Keep each answer shorter: write a large file in parts ` +
        "(create it with write_to_file holding the first part, then add the rest with several replace_in_file calls, " +
        "or split it into several smaller files), and send long commands or texts in smaller steps."
      );
    }
    const why = cutOff.reason === "interrupted" ? "The connection to the model was lost mid-answer." : "Your answer ended early.";
    return `${lead} ${why} Send the complete call again.`;
  },

  unknownTool(name: string, available?: readonly string[]): string {
    const list = available && available.length > 0 ? ` Available tools: ${available.join(", ")}.` : "";
    return `There is no tool named '${name}'.${list}`;
  },
};
