/**
 * After a sandboxed command: whether the sandbox stopped something it tried, said plainly for the
 * model, with what the sandbox allows and how to ask for a run outside it. Only paths and hosts
 * are named, never file content.
 */
import type { SandboxStatus } from "../../shared/sandbox-status";
import type { SandboxSettings } from "../../shared/settings";
import type { CommandScope } from "./command-scope";
import { workspaceReadOnlyPaths } from "./protected-locations";
import { isWithin } from "../util/real-paths";

/** What programs print when the sandbox refused them (file system, then network). */
const BLOCKED_SIGNS: readonly { readonly pattern: RegExp; readonly means: string }[] = [
  { pattern: /read-only file system|EROFS/i, means: "a write outside the writable folders (read-only file system)" },
  { pattern: /permission denied|EACCES/i, means: "a file the sandbox does not let it open (permission denied)" },
  { pattern: /operation not permitted|EPERM/i, means: "an operation the sandbox refuses (operation not permitted)" },
  { pattern: /invalid cross-device link|EXDEV/i, means: "a link or move across the sandbox's mounts (invalid cross-device link)" },
  { pattern: /blocked-by-allowlist|network allowlist|CONNECT tunnel failed, response 403|403 host is not on the allow list/i, means: "a host that is not on the network allow list" },
  {
    pattern: /could not resolve host|temporary failure in name resolution|ENOTFOUND|EAI_AGAIN|network is unreachable|ENETUNREACH/i,
    means: "the network outside the proxy (no direct connections or name lookups inside the sandbox)",
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

export function describeBlocked(facts: BlockedFacts): string | undefined {
  const signs = BLOCKED_SIGNS.filter((sign) => sign.pattern.test(facts.output)).map((sign) => sign.means);
  const hidden = namesHiddenPath(facts);
  if (hidden) signs.push(`${hidden}, which the sandbox hides (it reads as missing or not permitted)`);
  // The recorder also notes writes that went through, so alone it proves nothing for a command that succeeded.
  // Network denials are always real; file ones are write attempts, so only a failure makes them news.
  const recorded = violationLines(facts.violations).filter((line) => isNetworkDenial(line) || (facts.exitCode !== 0 && !isAllowedWrite(line, facts)));
  if (signs.length === 0 && recorded.length === 0) return undefined;
  const lines = ["The command ran inside Tandem's sandbox, which may have blocked it:"];
  for (const sign of signs) lines.push(`- the output points to ${sign}`);
  for (const line of recorded) lines.push(`- the sandbox recorded: ${line}`);
  lines.push(allowedSummary(facts));
  lines.push(
    'If the command really needs what was blocked, say why and run it again with <sandbox>off</sandbox>: the person is asked to approve running it outside the sandbox. Otherwise change the command to stay within these limits (for example write temporary files under $TMPDIR).',
  );
  return lines.join("\n");
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
  const cwd = facts.scope.cwd.endsWith("/") ? facts.scope.cwd : `${facts.scope.cwd}/`;
  return hidden.find(
    (denied) =>
      facts.output.includes(denied) ||
      (denied.startsWith(facts.home) && facts.output.includes(`~${denied.slice(facts.home.length)}`)) ||
      (denied.startsWith(cwd) && mentionsAsWord(facts.output, denied.slice(cwd.length))),
  );
}

/** `private/keys.txt` in "cat: private/keys.txt: No such file", not inside `my-private/keys.txt.bak`. */
function mentionsAsWord(text: string, relative: string): boolean {
  const escaped = relative.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s'"\`:(./])${escaped}($|[\\s'"\`:)/])`, "m").test(text);
}

function allowedSummary(facts: BlockedFacts): string {
  const { settings, scope } = facts;
  const writable = [...scope.roots.map((root) => `${root} (the workspace)`), "$TMPDIR (the task's temp folder)", ...settings.writableFolders];
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
