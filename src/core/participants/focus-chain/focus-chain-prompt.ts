/**
 * What the model is told about the focus chain, and the `task_progress` parameter every tool call
 * accepts: in the XML grammar (one more inner tag: FocusChain.callParams), in the native specs (one more optional
 * property), and in the system prompt (one short section, instead of a line in every tool).
 */
import type { ToolSpec } from "../../../api/types";
import { focusChainMarkdown, type FocusChainItem } from "../../../shared/focus-chain";
import type { ToolCallMode } from "../../../shared/settings";

export const TASK_PROGRESS = "task_progress";

// Short: every tool repeats it, and the system prompt's section says the rest.
const SPEC_DESCRIPTION = "The task's checklist, see TASK PROGRESS.";

/** The native specs with task_progress as an optional string property of every tool. */
export function withTaskProgressSpec(specs: readonly ToolSpec[]): ToolSpec[] {
  return specs.map((spec) => {
    const schema = spec.inputSchema as { properties?: Record<string, unknown> };
    return { ...spec, inputSchema: { ...spec.inputSchema, properties: { ...schema.properties, [TASK_PROGRESS]: { type: "string", description: SPEC_DESCRIPTION } } } };
  });
}

/** The system prompt's section: small, as it is paid for on every request. */
export function focusChainSection(mode: ToolCallMode): string {
  const how =
    mode === "native"
      ? "Every tool takes an optional task_progress argument for it."
      : `Write it as one more parameter of any tool call, the last one:\n<read_file>\n<path>src/app.ts</path>\n<task_progress>\n- [x] Find where the setting is read\n- [ ] Add the new option\n- [ ] Run the tests\n</task_progress>\n</read_file>`;
  return `TASK PROGRESS

Keep a checklist of the task's steps in task_progress. Give it with your first tool call, then again whenever it changes: tick a step once it is done, add steps you discover, drop steps that no longer apply. Send the whole list each time, one short line per item, "- [ ] step" open and "- [x] step" done. ${how}
If the person edits the checklist, their version is the one to keep. Before attempt_completion, every item should be ticked (or removed).`;
}

export const focusChainText = {
  reminder(items: readonly FocusChainItem[] | undefined, requests: number): string {
    if (!items || items.length === 0) {
      return `<focus_chain_reminder>\nThere is no checklist of this task yet. With your next tool call, give task_progress with the steps that remain ("- [ ] step", "- [x] step").\n</focus_chain_reminder>`;
    }
    return `<focus_chain_reminder>\nThe checklist has not been updated for ${requests} requests. It stands at:\n${focusChainMarkdown(items)}\nWith your next tool call, give task_progress with the list as it is now: tick what is done, add or drop steps.\n</focus_chain_reminder>`;
  },

  personEdited(items: readonly FocusChainItem[]): string {
    if (items.length === 0) return "The person cleared the checklist. Start a new one in task_progress only if the task still needs one.";
    return `The person edited the checklist. It is now:\n${focusChainMarkdown(items)}\nKeep to this version from now on (send it back in task_progress when you next change it).`;
  },

  unreadable(error: string, current: readonly FocusChainItem[] | undefined): string {
    const kept = current && current.length > 0 ? `The checklist is unchanged:\n${focusChainMarkdown(current)}` : "There is no checklist yet.";
    return `Your task_progress could not be read: ${error} The tool itself ran as usual. ${kept}\nSend the whole list again in the next tool call.`;
  },

  completionHeld(open: readonly FocusChainItem[]): string {
    return `The result was not shown to the person yet: the checklist still has ${open.length} open item${open.length === 1 ? "" : "s"}:\n${focusChainMarkdown(open)}\nFinish ${open.length === 1 ? "it" : "them"} first. If ${open.length === 1 ? "it is" : "they are"} done or no longer apply, tick or remove ${open.length === 1 ? "it" : "them"} in task_progress on attempt_completion. Called again with open items, attempt_completion goes to the person as it is.`;
  },
};
