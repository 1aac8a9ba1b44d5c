import { describe, expect, it } from "vitest";
import { applyModelRequest, evaluateCommand } from "./index";

const POLICY = { workspaceRoot: "/work/ws", homeDir: "/home/dev" };

describe("applyModelRequest", () => {
  const allow = evaluateCommand("ls", POLICY);
  const ask = evaluateCommand("npm test", POLICY);
  const deny = evaluateCommand("rm -rf /", POLICY);

  it("makes an allowed command ask when the model requests approval", () => {
    const result = applyModelRequest(allow, true);
    expect(result.decision).toBe("ask");
    expect(result.reason).toContain("model asked");
    expect(result.commands).toEqual(["ls"]);
  });

  it("never loosens a decision", () => {
    expect(applyModelRequest(allow, false)).toEqual(allow);
    expect(applyModelRequest(ask, false)).toEqual(ask);
    expect(applyModelRequest(ask, true)).toEqual(ask);
    expect(applyModelRequest(deny, false)).toEqual(deny);
    expect(applyModelRequest(deny, true)).toEqual(deny);
  });
});
