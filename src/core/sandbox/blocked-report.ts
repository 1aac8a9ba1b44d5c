/**
 * After a sandboxed command: whether the sandbox stopped something it tried. One finding, said
 * twice: plainly for the model, with what the sandbox allows and how to ask for a run outside it;
 * and as data for the person's row (what was refused, the line that shows it, the setting that
 * would allow it). Only paths and hosts are named, never file content.
 */
import * as path from "node:path";
import type { SandboxBlock, SandboxSettingKey } from "../../shared/command-run";
import type { SandboxStatus } from "../../shared/sandbox-status";
import type { SandboxSettings } from "../../shared/settings";
import type { CommandScope } from "./command-scope";
import { workspaceReadOnlyPaths } from "./protected-locations";
import { isWithin } from "../util/real-paths";

type SignKind = "write" | "denied" | "other" | "allowList" | "network";

/** What programs print when the sandbox refused them (file system, then network). */
const BLOCKED_SIGNS: readonly { readonly pattern: RegExp; readonly means: string; readonly kind: SignKind }[] = [
  { pattern: /read-only file system|EROFS/i, means: "a write outside the writable folders (read-only file system)", kind: "write" },
  { pattern: /permission denied|EACCES/i, means: "a file the sandbox does not let it open (permission denied)", kind: "denied" },
  { pattern: /operation not permitted|EPERM/i, means: "an operation the sandbox refuses (operation not permitted)", kind: "other" },
  { pattern: /invalid cross-device link|EXDEV/i, means: "a link or move across the sandbox's mounts (invalid cross-device link)", kind: "other" },
  {
    pattern: /blocked-by-allowlist|network allowlist|CONNECT tunnel failed, response 403|403 host is not on the allow list/i,
    means: "a host that is not on the network allow list",
    kind: "allowList",
  },
  {
    pattern: /could not resolve host|temporary failure in name resolution|ENOTFOUND|EAI_AGAIN|network is unreachable|ENETUNREACH/i,
    means: "the network outside the proxy (no direct connections or name lookups inside the sandbox)",
    kind: "network",
  },
];

const MAX_VIOLATIONS = 12;

export interface BlockedFacts {
  readonly exitCode: number | null;
  readonly output: string;
  /** What the library recorded for the command (its `<sandbox_violations>` block, or ""). */
  readonly violations: string;
  readonly scope: CommandScope;
  readonly settings: SandboxSettings;
  readonly status: SandboxStatus;
  readonly home: string;
}

/** What the sandbox blocked, for the model (`forModel`) and for the person's row (`forPerson`). */
export interface BlockedFinding {
  readonly forModel: string;
  readonly forPerson: readonly SandboxBlock[];
}

export function findBlocked(facts: BlockedFacts): BlockedFinding | undefined {
  const lines = facts.output.split("\n");
  const signs = BLOCKED_SIGNS.filter((sign) => sign.pattern.test(facts.output));
  const hidden = namesHiddenPath(facts);
  // The recorder also notes writes that went through, so alone it proves nothing for a command that succeeded.
  // Network denials are always real; file ones are write attempts, so only a failure makes them news.
  const recorded = violationLines(facts.violations).filter((line) => isNetworkDenial(line) || (facts.exitCode !== 0 && !isAllowedWrite(line, facts)));
  if (signs.length === 0 && !hidden && recorded.length === 0) return undefined;
  const means = signs.map((sign) => sign.means);
  if (hidden) means.push(`${hidden}, which the sandbox hides (it reads as missing or not permitted)`);
  const text = ["The command ran inside Tandem's sandbox, which may have blocked it:"];
  for (const sign of means) text.push(`- the output points to ${sign}`);
  for (const line of recorded) text.push(`- the sandbox recorded: ${line}`);
  text.push(allowedSummary(facts));
  text.push(
    'If the command really needs what was blocked, say why and run it again with <sandbox>off</sandbox>: the person is asked to approve running it outside the sandbox. Otherwise change the command to stay within these limits (for example write temporary files under $TMPDIR).',
  );
  const forPerson = [
    ...signs.map((sign) => blockFromSign(sign.kind, lines.find((line) => sign.pattern.test(line)) ?? "", facts)),
    ...(hidden ? [{ kind: "read" as const, target: hidden, evidence: lines.find((line) => mentionsHidden(line, hidden, facts)) ?? hidden }] : []),
    ...recorded.map((line) => blockFromRecord(line, facts)),
  ];
  return { forModel: text.join("\n"), forPerson: withoutRepeats(forPerson) };
}

/** The model's words alone (see findBlocked). */
export function describeBlocked(facts: BlockedFacts): string | undefined {
  return findBlocked(facts)?.forModel;
}

function blockFromSign(kind: SignKind, evidence: string, facts: BlockedFacts): SandboxBlock {
  const line = evidence.trim();
  switch (kind) {
    case "write":
    case "denied": {
      const named = pathInLine(line);
      const target = named === undefined ? undefined : absolute(named, facts);
      if (target !== undefined && isProtected(target, facts)) return { kind: "protected", target, evidence: line };
      if (kind === "denied") return { kind: "other", ...(target ? { target } : {}), evidence: line };
      return { kind: "write", ...(target ? { target } : {}), evidence: line, setting: "tandem.sandbox.writableFolders" };
    }
    case "allowList":
    case "network": {
      const host = hostInLine(line);
      const setting = networkSetting(facts.settings);
      return { kind: "network", ...(host ? { target: host } : {}), evidence: line, ...(setting ? { setting } : {}) };
    }
    case "other":
      return { kind: "other", evidence: line };
  }
}

/** A line of the sandbox's own record: `deny network-outbound host:port (why)` or `deny <call> /path`. */
function blockFromRecord(line: string, facts: BlockedFacts): SandboxBlock {
  const host = /^deny network\S* (\S+)/.exec(line)?.[1];
  if (host !== undefined) {
    const setting = networkSetting(facts.settings);
    return { kind: "network", target: host.replace(/:\d+$/, ""), evidence: line, ...(setting ? { setting } : {}) };
  }
  const target = /^deny \S+ (\/.*)$/.exec(line)?.[1];
  // Devices and the process table are the sandbox's own mounts (a shell on a terminal touches /dev/console): no folder to list.
  if (target === undefined || /^\/(dev|proc|sys)(\/|$)/.test(target)) return { kind: "other", ...(target ? { target } : {}), evidence: line };
  if (isProtected(target, facts)) return { kind: "protected", target, evidence: line };
  return { kind: "write", target, evidence: line, setting: "tandem.sandbox.writableFolders" };
}

/** What would let a refused connection through: the allow list, or the network at all. With every host allowed, only this machine's own stay out. */
function networkSetting(settings: SandboxSettings): SandboxSettingKey | undefined {
  if (settings.network === "none") return "tandem.sandbox.network";
  if (settings.network === "allowList") return "tandem.sandbox.allowedDomains";
  return undefined;
}

/** The same refusal seen twice (the output and the record name the same path): kept once, the more precise. */
function withoutRepeats(blocks: readonly SandboxBlock[]): SandboxBlock[] {
  const kept: SandboxBlock[] = [];
  for (const block of blocks) {
    const twin = kept.findIndex((other) => (block.target !== undefined && other.target === block.target) || (block.evidence !== "" && other.evidence === block.evidence));
    if (twin < 0) kept.push(block);
    else if (kept[twin]?.kind === "other" && block.kind !== "other") kept[twin] = block;
  }
  return kept;
}

/** The path a program's error line names: a quoted one first, else the first word that looks like a path (after the program's own name). */
function pathInLine(line: string): string | undefined {
  const quoted = [...line.matchAll(/['‘"`]([^'’"`\s]+)['’"`]/g)].map((match) => match[1] ?? "");
  const words = line
    .split(/:\s+|\s+/)
    .slice(1)
    .map((word) => word.replace(/[:,;]+$/, ""));
  return [...quoted, ...words].find((word) => /^(\/|~\/|\.\.?\/)/.test(word) || (word.includes("/") && !word.includes("://")));
}

function hostInLine(line: string): string | undefined {
  return /(?:resolve host:?|ENOTFOUND|EAI_AGAIN)\s+['"]?([\w.-]+\.[a-z]{2,})/i.exec(line)?.[1];
}

function absolute(named: string, facts: BlockedFacts): string {
  if (named === "~" || named.startsWith("~/")) return path.join(facts.home, named.slice(1));
  return path.resolve(facts.scope.cwd, named);
}

/** In a workspace but read-only there (.git/hooks, .vscode/, …): no writable folder lets it through. */
function isProtected(target: string, facts: BlockedFacts): boolean {
  const within = (folder: string) => isWithin(folder, target);
  return [...facts.scope.roots.flatMap(workspaceReadOnlyPaths), ...facts.scope.readOnly].some(within);
}

function violationLines(block: string): string[] {
  const inside = /<sandbox_violations>\n?([\s\S]*?)<\/sandbox_violations>/.exec(block)?.[1] ?? "";
  const lines = [...new Set(inside.split("\n").map((line) => line.trim()).filter(Boolean))];
  if (lines.length <= MAX_VIOLATIONS) return lines;
  return [...lines.slice(0, MAX_VIOLATIONS), `… and ${lines.length - MAX_VIOLATIONS} more`];
}

function isNetworkDenial(line: string): boolean {
  return /^deny network/.test(line);
}

/** The recorder notes write attempts, allowed ones too: a write into a writable folder was not blocked. */
function isAllowedWrite(line: string, facts: BlockedFacts): boolean {
  const target = /^deny \S+ (\/.*)$/.exec(line)?.[1];
  if (target === undefined) return false;
  const within = (folder: string) => isWithin(folder, target);
  const writable = [...facts.scope.roots, facts.scope.tempDir].some(within);
  const protectedPath = [...facts.scope.roots.flatMap(workspaceReadOnlyPaths), ...facts.scope.readOnly, ...facts.scope.hiddenReads].some(within);
  return writable && !protectedPath;
}

/** A hidden path the output names: absolute, from HOME (`~/.ssh`), or relative to the command's folder. */
function namesHiddenPath(facts: BlockedFacts): string | undefined {
  const hidden = [...facts.status.deniedReads, ...facts.scope.hiddenReads];
  return hidden.find((denied) => mentionsHidden(facts.output, denied, facts));
}

function mentionsHidden(text: string, denied: string, facts: BlockedFacts): boolean {
  const cwd = facts.scope.cwd.endsWith("/") ? facts.scope.cwd : `${facts.scope.cwd}/`;
  return (
    text.includes(denied) ||
    (denied.startsWith(facts.home) && text.includes(`~${denied.slice(facts.home.length)}`)) ||
    (denied.startsWith(cwd) && mentionsAsWord(text, denied.slice(cwd.length)))
  );
}

/** `private/keys.txt` in "cat: private/keys.txt: No such file", not inside `my-private/keys.txt.bak`. */
function mentionsAsWord(text: string, relative: string): boolean {
  const escaped = relative.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s'"\`:(./])${escaped}($|[\\s'"\`:)/])`, "m").test(text);
}

function allowedSummary(facts: BlockedFacts): string {
  const { settings, scope } = facts;
  const workspace = scope.roots.length > 1 ? "a workspace folder" : "the workspace";
  const writable = [...scope.roots.map((root) => `${root} (${workspace})`), "$TMPDIR (the task's temp folder)", ...settings.writableFolders];
  const network =
    settings.network === "all"
      ? "any host through the sandbox's proxy (not the machine's own localhost)"
      : settings.network === "none"
        ? "no host at all"
        : `only these hosts: ${facts.status.allowedDomains.join(", ")}`;
  return (
    `Inside the sandbox a command may write only in ${writable.join(", ")}; .git/hooks, .git/config, the ignore files, .vscode/ and .tandem/ stay read-only; ` +
    `credential stores in the home folder and the workspace's ignored and secret files cannot be read; the network reaches ${network}.`
  );
}

/** The finding, with the git files the command changed and Tandem put back (git-control-files.ts) said first. */
export function withGitUndone(finding: BlockedFinding | undefined, undone: readonly string[]): BlockedFinding | undefined {
  if (undone.length === 0) return finding;
  const named = undone.slice(0, MAX_VIOLATIONS).join(", ") + (undone.length > MAX_VIOLATIONS ? `, and ${undone.length - MAX_VIOLATIONS} more` : "");
  const forModel =
    `The command changed files git obeys (${named}): git would read its settings or hooks from there, outside the sandbox. ` +
    "Tandem put them back as they were. Change git's settings only by asking the person.";
  const forPerson: SandboxBlock[] = undone.map((file) => ({ kind: "protected", target: file, evidence: "changed by the command; put back after it ended" }));
  return { forModel: finding ? `${forModel}\n\n${finding.forModel}` : forModel, forPerson: [...forPerson, ...(finding?.forPerson ?? [])] };
}

