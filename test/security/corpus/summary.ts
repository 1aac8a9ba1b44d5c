/** The corpus's summary table: cases per class, what was expected and seen, and which failed. */
import { GROUPS, OUTCOMES, type CaseResult, type SecurityCase } from "./types";

export function failed(c: SecurityCase, result: CaseResult | undefined): boolean {
  return !result || !expected(c, result) || result.violations.length > 0;
}

export function expected(c: SecurityCase, result: CaseResult): boolean {
  return result.observed === c.expect || result.observed === c.orElse;
}

export function formatSummary(cases: readonly SecurityCase[], results: ReadonlyMap<string, CaseResult>, seconds: number): string {
  const header = ["class", "cases", "cli", "policy", ...OUTCOMES.map((o) => `exp ${o}`), ...OUTCOMES.map((o) => `got ${o}`), "got other", "failed"];
  const rows: string[][] = [];
  for (const group of [...GROUPS, "total" as const]) {
    const mine = cases.filter((c) => group === "total" || c.group === group);
    if (mine.length === 0) continue;
    const got = (o: string) => mine.filter((c) => results.get(c.id)?.observed === o).length;
    rows.push([
      group,
      String(mine.length),
      String(mine.filter((c) => c.run === "cli").length),
      String(mine.filter((c) => c.run === "policy").length),
      ...OUTCOMES.map((o) => String(mine.filter((c) => c.expect === o).length)),
      ...OUTCOMES.map((o) => String(got(o))),
      String(mine.filter((c) => !(OUTCOMES as readonly string[]).includes(results.get(c.id)?.observed ?? "")).length),
      String(mine.filter((c) => failed(c, results.get(c.id))).length),
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ");
  const failures = cases.filter((c) => failed(c, results.get(c.id)));
  const slowest = [...results.values()].sort((a, b) => (b.ms ?? 0) - (a.ms ?? 0)).slice(0, 3);
  return [
    "",
    `Security corpus (issue 11): ${cases.length} cases in ${seconds.toFixed(0)} s`,
    line(header),
    ...rows.map(line),
    `Slowest: ${slowest.map((r) => `${r.id} ${((r.ms ?? 0) / 1000).toFixed(1)} s`).join(", ")}`,
    ...(failures.length ? ["", `Failing cases (${failures.length}):`] : []),
    ...failures.map((c) => {
      const r = results.get(c.id);
      const problems = !r ? ["no result"] : [expected(c, r) ? "" : `expected ${c.expect}${c.orElse ? ` or ${c.orElse}` : ""}, got ${r.observed}`, ...r.violations].filter(Boolean);
      const shown = problems.length > 4 ? [...problems.slice(0, 4), `${problems.length - 4} more`] : problems;
      return `  [${c.group}] ${c.id}: ${shown.join("; ")}`;
    }),
  ].join("\n");
}
