import { describe, expect, it } from "vitest";
import type { AskMessage } from "../shared/messages";
import { refusalHint } from "./auto-approve";

const guardWrite: AskMessage = {
  ts: 1,
  type: "ask",
  ask: "tool",
  text: "",
  tool: { tool: "write_to_file", path: ".tandemignore", why: ".tandemignore decides what Tandem may not read.", alwaysAsks: true },
};

describe("refusalHint", () => {
  it("does not suggest a switch that cannot help: the guard's own files always ask", () => {
    for (const yolo of [false, true]) {
      const hint = refusalHint(guardWrite, yolo);
      expect(hint).toContain(".tandemignore decides what Tandem may not read.");
      expect(hint).toContain("always asks");
      expect(hint).not.toContain("--auto-approve");
    }
  });

  it("names the switch that would allow an ordinary edit", () => {
    expect(refusalHint({ ...guardWrite, tool: { tool: "write_to_file", path: "a.ts" } }, false)).toContain("--auto-approve edit");
  });
});
