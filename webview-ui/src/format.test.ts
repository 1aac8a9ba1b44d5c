import { describe, expect, it } from "vitest";
import { formatBytes, formatCost, formatPrice, formatTokens } from "./format";

describe("format", () => {
  it("shortens token counts", () => {
    expect([formatTokens(999), formatTokens(1000), formatTokens(1250), formatTokens(2_500_000)]).toEqual(["999", "1k", "1.3k", "2.5M"]);
  });

  it("shows costs in dollars, with more digits below a cent and never negative", () => {
    expect([formatCost(1.5), formatCost(0.0123), formatCost(0), formatCost(-1e-12)]).toEqual(["$1.50", "$0.0123", "$0.00", "$0.00"]);
  });

  it("shows prices in cents unless a fraction of a cent matters", () => {
    expect([formatPrice(3), formatPrice(0.3), formatPrice(3.75), formatPrice(0.075)]).toEqual(["$3.00", "$0.30", "$3.75", "$0.075"]);
  });

  it("shows sizes on disk in binary units", () => {
    expect([formatBytes(0), formatBytes(1023), formatBytes(1536), formatBytes(12.3 * 1024 ** 2), formatBytes(5 * 1024 ** 3)]).toEqual(["0 B", "1023 B", "1.5 KB", "12.3 MB", "5 GB"]);
  });
});
