import { describe, expect, it } from "vitest";
import { stripTerminalSequences, TerminalOutputCleaner } from "../../src/host/vscode/terminal-output";

const ESC = "\x1b";
const BEL = "\x07";

/** What a bash shell with VS Code's shell integration writes for `npm test` (shortened). */
const SHELL_INTEGRATION_OUTPUT =
  `${ESC}]633;C${BEL}${ESC}[1m> tandem@0.1.0 test${ESC}[22m\r\n` +
  `${ESC}[32m✓${ESC}[39m 12 passed\r\n` +
  `${ESC}]633;D;0${BEL}${ESC}]633;P;Cwd=/work${ESC}\\`;

describe("stripTerminalSequences", () => {
  it("removes OSC 633 markers (BEL- and ST-terminated), colours, and turns CRLF into LF", () => {
    expect(stripTerminalSequences(SHELL_INTEGRATION_OUTPUT)).toBe("> tandem@0.1.0 test\n✓ 12 passed\n");
  });

  it("removes cursor movement, erase, private modes, charset and two-character sequences", () => {
    const text = `${ESC}[?25l${ESC}[2K${ESC}[1G${ESC}(Bhello${ESC}7${ESC}8${ESC}[?2004h world${ESC}[0m\n`;
    expect(stripTerminalSequences(text)).toBe("hello world\n");
  });

  it("removes DCS strings and stray control characters but keeps tabs and non-ASCII text", () => {
    expect(stripTerminalSequences(`${ESC}Pq#0;2;0;0;0${ESC}\\a\tb\x08\x00ü 日本\n`)).toBe("a\tbü 日本\n");
  });

  it("puts text after a lone CR (a progress bar redrawing its line) on a line of its own", () => {
    expect(stripTerminalSequences("10%\r50%\r100%\r\ndone\r\n")).toBe("10%\n50%\n100%\ndone\n");
    expect(stripTerminalSequences("\rstart")).toBe("start");
  });
});

describe("TerminalOutputCleaner", () => {
  it("gives the same text however the output is cut into chunks", () => {
    const whole = stripTerminalSequences(SHELL_INTEGRATION_OUTPUT + "tail\r\n");
    const input = SHELL_INTEGRATION_OUTPUT + "tail\r\n";
    for (let size = 1; size <= 9; size++) {
      const cleaner = new TerminalOutputCleaner();
      let out = "";
      for (let i = 0; i < input.length; i += size) out += cleaner.push(input.slice(i, i + size));
      expect(out, `chunks of ${size}`).toBe(whole);
    }
  });

  it("holds back a sequence cut at the end of a chunk until it completes", () => {
    const cleaner = new TerminalOutputCleaner();
    expect(cleaner.push(`a${ESC}]633;`)).toBe("a");
    expect(cleaner.push(`E;ls${BEL}b`)).toBe("b");
    expect(cleaner.push(`${ESC}`)).toBe("");
    expect(cleaner.push("[31mc")).toBe("c");
  });

  it("does not hold an unterminated string sequence for ever", () => {
    const cleaner = new TerminalOutputCleaner();
    expect(cleaner.push(`${ESC}]0;${"x".repeat(5000)}`)).toBe("");
    expect(cleaner.push("visible\n")).toBe("visible\n");
  });

  it("reset() forgets a half-received sequence", () => {
    const cleaner = new TerminalOutputCleaner();
    cleaner.push(`${ESC}[3`);
    cleaner.reset();
    expect(cleaner.push("1mred")).toBe("1mred");
  });
});
