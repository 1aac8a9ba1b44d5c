import { describe, expect, it } from "vitest";
import { AUTO_APPROVAL_SWITCHES, autoApprovalSwitch } from "./auto-approval";
import { DEFAULT_AUTO_APPROVAL } from "./settings";

describe("the auto-approval table", () => {
  it("has one row per switch of the settings, each with its setting key", () => {
    expect(AUTO_APPROVAL_SWITCHES.map((s) => s.key).sort()).toEqual(Object.keys(DEFAULT_AUTO_APPROVAL).sort());
    for (const s of AUTO_APPROVAL_SWITCHES) expect(s.setting).toBe(`autoApprove.${s.key}`);
    expect(autoApprovalSwitch("executeSafeCommands").cli).toBe("command-safe");
  });

  it("tells the switches apart by every name a person sees", () => {
    for (const field of ["cli", "label", "short", "description"] as const) {
      const values = AUTO_APPROVAL_SWITCHES.map((s) => s[field]);
      expect(new Set(values).size, field).toBe(values.length);
    }
    // A CLI name is typed in a comma-separated list.
    for (const s of AUTO_APPROVAL_SWITCHES) expect(s.cli).toMatch(/^[a-z][a-z-]*$/);
  });
});
