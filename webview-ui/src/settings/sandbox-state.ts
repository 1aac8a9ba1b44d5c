/** The sandbox's state in words for the settings view, and the comma-separated lists it edits. */
import type { SandboxStatus } from "../../../src/shared/sandbox-status";
import type { SandboxNetwork } from "../../../src/shared/settings";
import { domainProblem } from "../../../src/shared/sandbox-domains";

/** One short headline; the reason (why not available, why off) is shown once, beside it. */
export function sandboxHeadline(status: SandboxStatus): string {
  if (status.active) return `On: commands run in the sandbox (${status.technology ?? "OS sandbox"}).`;
  if (status.mode === "off") return status.available ? `Off: commands run unconfined (${status.technology ?? "a sandbox"} is available).` : "Off: commands run unconfined.";
  if (status.refusesCommands) return "Not available on this machine, and the mode is “on”: Tandem refuses to run commands.";
  return "Not available on this machine: commands run unconfined and the command guard alone judges them.";
}

export const NETWORK_LABELS: Record<SandboxNetwork, string> = {
  none: "No network",
  allowList: "Only the allow list",
  all: "Any host",
};

export const splitList = (text: string): string[] =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

export const joinList = (items: readonly string[]): string => items.join(", ");

export function checkDomains(text: string): string | undefined {
  const problem = splitList(text)
    .map((domain) => domainProblem(domain))
    .find(Boolean);
  return problem ? `${problem[0]?.toUpperCase()}${problem.slice(1)}.` : undefined;
}
