import type { TextRange } from "../../../src/shared/protocol";

/** `text` with the `ranges` a search matched marked (ranges in order, not overlapping). */
export function Highlighted({ text, ranges }: { text: string; ranges: readonly TextRange[] | undefined }) {
  if (!ranges?.length) return <>{text}</>;
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start < at || end > text.length) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}
