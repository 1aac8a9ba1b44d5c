/**
 * `@problems` and `@terminal`: what the host reports of the editor's errors and warnings and of
 * its terminals. Problems are one line each, grouped by file (workspace-relative; files the guard
 * ignores and files outside the workspace are left out). Both are bounded, and each cut says so.
 */
import type { HostBridge, WorkspaceProblem } from "../../host/bridge";
import type { PathGuard } from "../ignore/path-guard";
import type { WorkspaceRoots } from "../util/workspace-roots";
import { mentionBlock } from "./mention-block";
import { notIncluded } from "./mention-files";

export const MAX_PROBLEMS = 200;
/** Per terminal: the tail of its output. */
export const MAX_TERMINAL_OUTPUT_BYTES = 16 * 1024;
export const MAX_TERMINALS = 5;

export function problemsBlock(host: HostBridge, roots: WorkspaceRoots, guard: PathGuard): string {
  if (!host.editor) return mentionBlock("problems", {}, notIncluded("this host has no editor that reports problems."));
  const byFile = new Map<string, WorkspaceProblem[]>();
  let total = 0;
  let hidden = 0;
  for (const problem of host.editor.problems()) {
    if (!roots.holding(problem.path) || guard.isIgnored(problem.path)) {
      hidden++;
      continue;
    }
    total++;
    if (total > MAX_PROBLEMS) continue;
    const file = roots.shown(problem.path);
    byFile.set(file, [...(byFile.get(file) ?? []), problem]);
  }
  if (total === 0) return mentionBlock("problems", {}, hidden > 0 ? `No problems in the workspace's files (${hidden} in ignored or outside files left out).` : "No errors or warnings in the workspace.");
  const lines: string[] = [];
  for (const [file, problems] of byFile) {
    lines.push(file);
    for (const p of problems) lines.push(`  ${p.line + 1}: ${p.severity}${p.source || p.code ? ` [${[p.source, p.code].filter(Boolean).join(" ")}]` : ""} ${oneLine(p.message)}`);
  }
  if (total > MAX_PROBLEMS) lines.push(`[Only the first ${MAX_PROBLEMS} of ${total} problems are shown.]`);
  if (hidden > 0) lines.push(`[${hidden} problems in ignored files or outside the workspace left out.]`);
  return mentionBlock("problems", {}, lines.join("\n"));
}

export function terminalBlock(host: HostBridge): string {
  const terminals = host.terminal.activity?.();
  if (!terminals) return mentionBlock("terminal_output", {}, notIncluded("this host does not report its terminals."));
  if (terminals.length === 0) return mentionBlock("terminal_output", {}, "No terminal is open.");
  const parts = terminals.slice(0, MAX_TERMINALS).map((t) => {
    const head = `## ${t.name}${t.busy ? " (a command is running)" : ""}`;
    const command = t.lastCommand ? `\n$ ${t.lastCommand}` : "";
    const output = tail(t.recentOutput, MAX_TERMINAL_OUTPUT_BYTES);
    return `${head}${command}\n${output.trim() === "" ? "(no output)" : output}`;
  });
  if (terminals.length > MAX_TERMINALS) parts.push(`[${terminals.length - MAX_TERMINALS} more terminals left out.]`);
  return mentionBlock("terminal_output", {}, parts.join("\n\n"));
}

/** The end of `text` within `maxBytes` (recent output matters most), from a line start, marked when cut. */
function tail(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return text;
  // A character split at the cut decodes as U+FFFD: drop it rather than show it.
  const end = bytes.subarray(bytes.length - maxBytes).toString("utf8").replace(/^\uFFFD+/, "");
  const lineStart = end.indexOf("\n");
  const kept = lineStart >= 0 && lineStart < end.length * 0.2 ? end.slice(lineStart + 1) : end;
  return `[… earlier output cut; the last ${Math.round(maxBytes / 1024)} KB follow]\n${kept}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
