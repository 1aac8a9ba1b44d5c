/**
 * Which errors an edit introduced: the file's error diagnostics after saving, less those it had
 * before. Positions move when lines are added above, so problems are matched by what they say
 * (source, code, message), counting repeats.
 */

export interface Problem {
  /** Zero-based line. */
  readonly line: number;
  readonly message: string;
  /** The tool that reported it, e.g. "ts" or "eslint". */
  readonly source?: string;
  readonly code?: string;
}

/** The new problems, one line each: `line 12: Cannot find name 'x'. [ts 2304]`. */
export function newProblems(before: readonly Problem[], after: readonly Problem[]): string[] {
  const seen = new Map<string, number>();
  for (const problem of before) seen.set(keyOf(problem), (seen.get(keyOf(problem)) ?? 0) + 1);
  const fresh: Problem[] = [];
  for (const problem of after) {
    const count = seen.get(keyOf(problem)) ?? 0;
    if (count > 0) seen.set(keyOf(problem), count - 1);
    else fresh.push(problem);
  }
  return fresh.sort((a, b) => a.line - b.line).map(describeProblem);
}

export function describeProblem(problem: Problem): string {
  const origin = [problem.source, problem.code].filter(Boolean).join(" ");
  return `line ${problem.line + 1}: ${problem.message.trim()}${origin ? ` [${origin}]` : ""}`;
}

function keyOf(problem: Problem): string {
  return JSON.stringify([problem.source ?? "", problem.code ?? "", problem.message.trim()]);
}
