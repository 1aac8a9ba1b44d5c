/**
 * `--auto-approve`: reading the CLI's names of the auto-approval switches (the table in
 * `src/shared/auto-approval.ts`). Light: the command line's parsing (`args.ts`) needs it, so it
 * imports nothing of the agent.
 */
import type { AutoApprovalSettings } from "../shared/settings";
import { DEFAULT_AUTO_APPROVAL } from "../shared/settings";
import { AUTO_APPROVAL_SWITCHES, autoApprovalSwitch, type AutoApprovalKey } from "../shared/auto-approval";

/** The CLI's name of a switch (`edit`, `command-safe`, …). */
export const switchName = (key: AutoApprovalKey) => autoApprovalSwitch(key).cli;
/** The switches' names and descriptions as a column (--help, the start line). */
export function switchLines(indent: string, switches = AUTO_APPROVAL_SWITCHES): string[] {
  return switches.map((s) => `${indent}${s.cli.padEnd(13)} ${s.description}`);
}

/** `["edit,command-safe", "read-outside"]` → the switches turned on; throws on a name it does not know. */
export function parseAutoApprove(values: readonly string[]): Partial<AutoApprovalSettings> {
  const on: Partial<AutoApprovalSettings> = {};
  for (const name of values.flatMap((v) => v.split(",")).map((n) => n.trim()).filter(Boolean)) {
    const found = AUTO_APPROVAL_SWITCHES.find((s) => s.cli === name);
    if (!found) throw new Error(`Unknown --auto-approve switch "${name}": use ${AUTO_APPROVAL_SWITCHES.map((s) => s.cli).join(", ")}.`);
    on[found.key] = true;
  }
  return on;
}

/** Said once at the start of an unattended run without --yolo. */
export function unattendedNote(on: Partial<AutoApprovalSettings>): string {
  const settings = { ...DEFAULT_AUTO_APPROVAL, ...on };
  const allowed = AUTO_APPROVAL_SWITCHES.filter((s) => settings[s.key]).map((s) => s.cli);
  const more = switchLines("  ", AUTO_APPROVAL_SWITCHES.filter((s) => !settings[s.key]));
  return [
    "tandem: no terminal to ask and no --yolo: whatever needs approval is refused and stops the task (exit code 3).",
    `Approved without asking: ${allowed.join(", ") || "nothing"}. To allow more, add --auto-approve with any of:`,
    ...more,
    "or --yolo for everything.",
  ].join("\n");
}
