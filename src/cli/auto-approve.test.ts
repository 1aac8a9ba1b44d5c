import { describe, expect, it } from "vitest";
import type { AskMessage } from "../shared/messages";
import { AUTO_APPROVAL_SWITCHES, autoApprovalSwitch } from "../shared/auto-approval";
import { USAGE } from "./args";
import { refusalHint } from "./answers";
import { parseAutoApprove, unattendedNote } from "./auto-approve";

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

describe("the CLI's switch names come from the shared table", () => {
  it("parses every table name into its switch, and names them all when one is unknown", () => {
    for (const s of AUTO_APPROVAL_SWITCHES) expect(parseAutoApprove([s.cli])).toEqual({ [s.key]: true });
    expect(() => parseAutoApprove(["edit,typo"])).toThrow(`use ${AUTO_APPROVAL_SWITCHES.map((s) => s.cli).join(", ")}.`);
  });

  it("the start line lists each switch that is off with its description, and those on by name", () => {
    const note = unattendedNote({ editFiles: true });
    expect(note).toContain("Approved without asking: read, edit.");
    for (const s of AUTO_APPROVAL_SWITCHES.filter((s) => s.key !== "readFiles" && s.key !== "editFiles")) {
      expect(note).toContain(`  ${s.cli.padEnd(13)} ${s.description}`);
    }
    expect(note).not.toContain(autoApprovalSwitch("editFiles").description);
  });

  it("--help lists every switch", () => {
    for (const s of AUTO_APPROVAL_SWITCHES) expect(USAGE).toContain(`${s.cli.padEnd(13)} ${s.description}`);
  });
});
