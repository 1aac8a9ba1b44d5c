/** Compact numbers for the chat: 1234 -> "1.2k", 0.01234 -> "$0.0123". */

export function formatTokens(count: number): string {
  if (!Number.isFinite(count)) return "?";
  const abs = Math.abs(count);
  if (abs >= 1_000_000) return `${trim(count / 1_000_000)}M`;
  if (abs >= 1_000) return `${trim(count / 1_000)}k`;
  return String(Math.round(count));
}

function trim(value: number): string {
  return value.toFixed(1).replace(/\.0$/, "");
}

export function formatCost(usd: number): string {
  // Incremental sums can leave a hair below zero; a cost is never negative.
  const value = Math.max(0, usd);
  // Sub-dollar costs need four places: a cheap request costs fractions of a cent.
  return `$${value.toFixed(value > 0 && value < 1 ? 4 : 2)}`;
}

/** USD per million tokens. */
export function formatPrice(usdPerMillion: number): string {
  // Cents, unless a fraction of a cent matters (e.g. $0.075).
  const precise = usdPerMillion.toFixed(3);
  return `$${precise.endsWith("0") ? usdPerMillion.toFixed(2) : precise}`;
}

/** Sizes on disk in binary units, as VS Code shows them: 1536 -> "1.5 KB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "?";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${trim(value)} ${units[unit]}`;
}

export function formatDate(epochMs: number): string {
  return new Date(epochMs).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
