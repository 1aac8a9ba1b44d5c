/**
 * The `<environment_details>` block that goes with every request's last user message: what the
 * editor shows, what the terminals printed since the last round, the background commands' news,
 * the time, the mode, how full the context window is, and (first request only) the workspace's
 * files. Plain formatting of facts gathered elsewhere (environment-in-loop.ts); an empty section
 * is left out, so a quiet round costs a few dozen tokens.
 */
import { oneLineName } from "../util/one-line-name";
import type { RootListing } from "./workspace-listing";

export const ENVIRONMENT_DETAILS_TAG = "environment_details";

/** A terminal's news since the last round (terminal-news.ts). */
export interface TerminalReport {
  readonly name: string;
  readonly busy: boolean;
  readonly lastCommand?: string;
  /** New output since the last round, already bounded; empty when there is none. */
  readonly newOutput: string;
  /** Some of the new output was cut (the host's tail or ours). */
  readonly cut: boolean;
  /** The new output is already in this request (a tool result, the background news). */
  readonly alreadyShown: boolean;
}

export interface EnvironmentFacts {
  /** Workspace-relative, the active one first. */
  readonly visibleFiles: readonly string[];
  /** Workspace-relative, those not visible. */
  readonly otherTabs: readonly string[];
  readonly terminals: readonly TerminalReport[];
  /** BackgroundCommands.takeReport(), when there is news. */
  readonly backgroundNews?: string;
  readonly now: Date;
  /** The IANA name, e.g. "Europe/Paris"; absent when unknown. */
  readonly timeZone?: string;
  /** The agent's mode (issue 17); absent until modes exist. */
  readonly mode?: string;
  /** From the previous request's reported usage; absent on the first request. */
  readonly usage?: { readonly used: number; readonly window: number };
  /** Each workspace folder's bounded listing (workspace-listing.ts), first request only. */
  readonly listings?: readonly RootListing[];
}

/** At most this many open tabs are named; the rest are counted. */
export const TABS_SHOWN = 30;

export function buildEnvironmentDetails(facts: EnvironmentFacts): string {
  const sections = [
    section("Visible files", facts.visibleFiles.map((name) => oneLineName(name)).join("\n")),
    section("Other open tabs", namesWithin(facts.otherTabs, TABS_SHOWN)),
    section("Terminals", facts.terminals.map(describeTerminal).join("\n")),
    facts.backgroundNews ?? "",
    section("Current time", formatTime(facts.now, facts.timeZone)),
    section("Mode", facts.mode ?? ""),
    section("Context window", facts.usage ? formatUsage(facts.usage) : ""),
    ...(facts.listings ?? []).map((listing) => section(`Workspace files (${oneLineName(listing.root)})`, listing.text)),
  ].filter((s) => s !== "");
  return `<${ENVIRONMENT_DETAILS_TAG}>\n${sections.join("\n\n")}\n</${ENVIRONMENT_DETAILS_TAG}>`;
}

/** True for the block this file builds (an older one is replaced by a newer, not kept beside it). */
export function isEnvironmentDetails(text: string): boolean {
  return text.startsWith(`<${ENVIRONMENT_DETAILS_TAG}>`);
}

function section(title: string, body: string): string {
  return body === "" ? "" : `# ${title}\n${body}`;
}

function namesWithin(names: readonly string[], limit: number): string {
  const shown = names.slice(0, limit).map((name) => oneLineName(name)).join("\n");
  return names.length > limit ? `${shown}\n(and ${names.length - limit} more)` : shown;
}

function describeTerminal(t: TerminalReport): string {
  const command = t.lastCommand ? ` \`${oneLine(t.lastCommand)}\`` : "";
  const head = `## ${oneLineName(t.name)}: ${t.busy ? `running${command}` : command ? `idle, last ran${command}` : "idle"}`;
  if (t.alreadyShown) return `${head}\n(its new output is shown above)`;
  if (t.newOutput === "") return head;
  return `${head}\nNew output${t.cut ? " (the end of it)" : ""}:\n${t.newOutput}`;
}

function oneLine(command: string): string {
  const line = command.replace(/\s*[\r\n\u2028\u2029]\s*/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Local time to the minute with its UTC offset: `2026-12-02 14:05 (Europe/Paris, UTC+01:00)`. */
export function formatTime(now: Date, timeZone: string | undefined): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}`;
  const offset = -now.getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  const utc = `UTC${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${date} (${timeZone ? `${timeZone}, ` : ""}${utc})`;
}

function formatUsage({ used, window }: { used: number; window: number }): string {
  const percent = window > 0 ? Math.round((used / window) * 100) : 0;
  return `${used.toLocaleString("en-US")} of ${window.toLocaleString("en-US")} tokens used (${percent}%)`;
}
