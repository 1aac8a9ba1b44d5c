/** The sandbox corpus's table: cases per class; refused by the guard, blocked inside the sandbox, allowed; failures. */
import { SANDBOX_GROUPS, type Observed, type SandboxCase, type SandboxCaseResult } from "./types";

/** Whether the observed outcome is one the case accepts. */
export function accepted(c: SandboxCase, observed: Observed | undefined): boolean {
  const byGuard = observed === "refused by guard" || observed === "asked";
  switch (c.expect) {
    case "guard":
      return byGuard;
    case "sandbox":
      return observed === "blocked by sandbox";
    case "either":
      return byGuard || observed === "blocked by sandbox";
    case "contained":
      // A guard stop is safe too (a command naming a secret file asks, sandbox or not).
      return byGuard || observed === "blocked by sandbox" || observed === "ran unblocked";
    case "allowed":
      return observed === "allowed";
  }
}

export function failedCase(c: SandboxCase, r: SandboxCaseResult | undefined): boolean {
  return !r || !accepted(c, r.observed) || r.violations.length > 0;
}

/** Ran inside the sandbox (blocked there, or allowed by the allow list), rather than stopped before. */
export function ranInSandbox(r: SandboxCaseResult | undefined): boolean {
  return r?.observed === "blocked by sandbox" || r?.observed === "allowed" || r?.observed === "ran unblocked";
}

export function formatSandboxSummary(cases: readonly SandboxCase[], results: ReadonlyMap<string, SandboxCaseResult>, seconds: number, notRun: readonly string[]): string {
  const header = ["class", "cases", "refused by guard", "asked", "blocked by sandbox", "allowed", "ran unblocked", "other", "failed"];
  const rows: string[][] = [];
  for (const group of [...SANDBOX_GROUPS, "total" as const]) {
    const mine = cases.filter((c) => group === "total" || c.group === group);
    if (mine.length === 0) continue;
    const count = (o: Observed) => mine.filter((c) => results.get(c.id)?.observed === o).length;
    const named: Observed[] = ["refused by guard", "asked", "blocked by sandbox", "allowed", "ran unblocked"];
    const other = mine.filter((c) => !named.includes(results.get(c.id)?.observed ?? "other: none")).length;
    rows.push([group, String(mine.length), ...named.map((o) => String(count(o))), String(other), String(mine.filter((c) => failedCase(c, results.get(c.id))).length)]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ");
  const failures = cases.filter((c) => failedCase(c, results.get(c.id)));
  const ran = cases.filter((c) => ranInSandbox(results.get(c.id))).length;
  return [
    "",
    `Sandbox corpus (issue 12): ${cases.length} cases in ${seconds.toFixed(0)} s, YOLO with --sandbox on; ${ran} ran inside the sandbox`,
    line(header),
    ...rows.map(line),
    ...(notRun.length ? [`Not run: ${notRun.join(", ")}`] : []),
    ...(failures.length ? ["", `Failing cases (${failures.length}):`] : []),
    ...failures.map((c) => {
      const r = results.get(c.id);
      const problems = !r ? ["no result"] : [accepted(c, r.observed) ? "" : `expected ${c.expect}, got ${r.observed}`, ...r.violations].filter(Boolean);
      return `  [${c.group}] ${c.id} (${c.command}): ${problems.slice(0, 4).join("; ")}${problems.length > 4 ? `; ${problems.length - 4} more` : ""}`;
    }),
  ].join("\n");
}
