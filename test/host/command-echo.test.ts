import { describe, expect, it } from "vitest";
import { LeadingEchoFilter } from "../../src/host/vscode/command-echo";

/** Feeds the chunks through a filter and returns all it passed on, flush included. */
function filtered(command: string, chunks: string[]): string {
  const filter = new LeadingEchoFilter(command);
  return chunks.map((chunk) => filter.push(chunk)).join("") + filter.flush();
}

describe("LeadingEchoFilter", () => {
  it("drops a first line that is the command line echoed back", () => {
    expect(filtered("printf x; false", ["printf x; false\nx"])).toBe("x");
  });

  it("recognises the echo across chunks and around spaces", () => {
    expect(filtered("echo hi", ["ec", "ho h", "i  \n", "hi\n"])).toBe("hi\n");
  });

  it("keeps output that only starts like the command", () => {
    expect(filtered("echo hi", ["echo hi there\n", "more\n"])).toBe("echo hi there\nmore\n");
    expect(filtered("echo", ["echo\u0020x\n"])).toBe("echo x\n");
  });

  it("passes ordinary output through as it comes, holding nothing back", () => {
    const filter = new LeadingEchoFilter("ls");
    expect(filter.push("a.txt\n")).toBe("a.txt\n");
    expect(filter.push("ls\n")).toBe("ls\n"); // only the first line can be the echo
  });

  it("gives back a held first line when the output ends without a newline", () => {
    const filter = new LeadingEchoFilter("echo hello");
    expect(filter.push("echo hel")).toBe("");
    expect(filter.flush()).toBe("echo hel");
  });

  it("treats an empty first line as output", () => {
    expect(filtered("true", ["\n", "done\n"])).toBe("\ndone\n");
  });
});
