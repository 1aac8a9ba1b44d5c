import { describe, expect, it } from "vitest";
import { TerminalActivityLog } from "./terminal-activity-log";

describe("TerminalActivityLog", () => {
  it("keeps each terminal's last command, whether it runs, and a bounded tail with the total count", () => {
    const log = new TerminalActivityLog({ tailChars: 10 });
    const feed = log.begin("key", "bash", "npm test");
    feed.output("0123456789");
    feed.output("abcdefghij");
    feed.output("KLMNO");
    expect(log.activity()).toEqual([{ name: "bash", busy: true, lastCommand: "npm test", recentOutput: "fghijKLMNO", outputLength: 25 }]);
    feed.end();
    feed.end();
    feed.output("after the end");
    expect(log.activity()[0]).toMatchObject({ busy: false, outputLength: 25 });
  });

  it("gives a second terminal of the same name its own name, most recently used first", () => {
    const log = new TerminalActivityLog();
    log.begin("a", "bash", "one").end();
    log.begin("b", "bash", "two");
    expect(log.activity().map((t) => t.name)).toEqual(["bash (2)", "bash"]);
    log.begin("a", "bash", "three");
    expect(log.activity().map((t) => `${t.name}: ${t.lastCommand}`)).toEqual(["bash: three", "bash (2): two"]);
    log.remove("a");
    expect(log.activity().map((t) => t.name)).toEqual(["bash (2)"]);
  });

  it("lends an idle terminal to the next command; a concurrent one gets another", () => {
    const log = new TerminalActivityLog();
    const first = log.beginInIdle("shell", "build");
    first.output("built\n");
    first.end();
    const second = log.beginInIdle("shell", "serve");
    const third = log.beginInIdle("shell", "test");
    expect(log.activity().map((t) => [t.name, t.lastCommand, t.busy])).toEqual([
      ["shell (2)", "test", true],
      ["shell", "serve", true],
    ]);
    second.end();
    third.end();
  });

  it("keeps only the most recent idle terminals, but every busy one", () => {
    const log = new TerminalActivityLog({ idleTerminals: 2 });
    const busy = log.begin("busy", "dev", "serve");
    for (const key of ["x", "y", "z"]) log.begin(key, key, "ls").end();
    expect(log.activity().map((t) => t.name)).toEqual(["z", "y", "dev"]);
    busy.end();
  });
});
