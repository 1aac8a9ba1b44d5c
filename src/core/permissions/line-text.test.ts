import { describe, expect, it } from "vitest";
import { historyExpansion, readLineText } from "./line-text";

/**
 * What a terminal does with the characters of a line before the shell parses it. Each hidden
 * effect makes the line run differently from how it reads, so a person approving it must be told.
 */
describe("readLineText", () => {
  it("turns every line break a terminal or a reader sees into \\n, so each part is judged", () => {
    expect(readLineText("npm ci\rrm -rf ~", true).text).toBe("npm ci\nrm -rf ~");
    expect(readLineText("a\r\nb", true).text).toBe("a\nb");
    expect(readLineText("a\r\rb", true).text, "two carriage returns are two line ends").toBe("a\n\nb");
    expect(readLineText("a\u2028b\u2029c\u0085d", true).text).toBe("a\nb\nc\nd");
    expect(readLineText("a\u2028\u2029b", true).text, "every break, not only the first").toBe("a\n\nb");
    expect(readLineText("ls\tx\ny", true)).toEqual({ text: "ls\tx\ny", hidden: null });
  });

  it("names a control character a terminal reads as a key, by its code point", () => {
    expect(readLineText("ls\u0001rm -rf ~", true).hidden).toBe("it contains the control character U+0001, which a terminal reads as a key, not as text");
    expect(readLineText("ls\u000brm x", false).hidden, "vertical tab is Ctrl-K, even in bash -c").toContain("U+000B");
    expect(readLineText("ls\u000cx", true).hidden).toContain("U+000C");
    expect(readLineText("ls\u001fx", true).hidden, "the last C0 control").toContain("U+001F");
    expect(readLineText("ls\u007fx", true).hidden, "DEL").toContain("U+007F");
    expect(readLineText("ls\u009bx", true).hidden, "a C1 control (8-bit CSI)").toContain("U+009B");
    expect(readLineText("ls\u009fx", true).hidden, "the last C1 control").toContain("U+009F");
  });

  it("lets text through that only looks unusual: tab, newline, space, printable and non-Latin characters", () => {
    for (const text of ["ls\tx", "a\nb", "echo ~ }", "echo \u00a0é\u00a1", "echo ü \u00ff"]) {
      expect(readLineText(text, false).hidden, JSON.stringify(text)).toBeNull();
    }
  });

  it("names a character that reorders how the line is shown", () => {
    expect(readLineText("echo \u202eabc", false).hidden).toBe("it contains U+202E, which makes the line look different from what runs");
    for (const ch of ["\u202a", "\u202e", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c"]) {
      expect(readLineText(`echo ${ch}x`, false).hidden, ch.codePointAt(0)?.toString(16)).toContain(`U+${ch.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`);
    }
  });

  it("names history expansion in an interactive shell only", () => {
    expect(readLineText("echo !!", true).hidden).toBe("`!!` brings back an earlier command line in an interactive shell (history expansion)");
    expect(readLineText("echo !!", false).hidden, "bash -c has no history").toBeNull();
    expect(readLineText("^rm^ls", true).hidden).toBe("`^rm^ls` brings back an earlier command line in an interactive shell (history expansion)");
  });
});

describe("historyExpansion", () => {
  it("finds `^old^new` at the start of any line, which re-runs the last command changed", () => {
    expect(historyExpansion("^build^~")).toBe("^build^~");
    expect(historyExpansion("ls\n^a^b\nls")).toBe("^a^b");
    expect(historyExpansion("^")).toBe("^");
    expect(historyExpansion("echo a^b")).toBeNull();
    expect(historyExpansion("echo '\n^a^b'"), "inside single quotes a new line is text").toBeNull();
  });

  it("finds `!` words and names the whole word", () => {
    expect(historyExpansion("echo !!")).toBe("!!");
    expect(historyExpansion("!rm -x")).toBe("!rm");
    expect(historyExpansion("echo \"a!b\"")).toBe("!b\"");
    expect(historyExpansion("echo a!$")).toBe("!$");
  });

  it("leaves alone what bash does not expand", () => {
    for (const text of [
      "echo '!!'",
      "echo $'!!'",
      "echo \\!!",
      "[ a != b ]",
      "echo ! x",
      "echo !\tx",
      "echo !",
      "! (ls)",
      "echo $!",
      "echo ${!x}",
      "echo $!a",
      "echo \"a\" '!x'",
      "ls [!a]*",
      "echo \"hi!\"",
      "a=!\necho ok",
    ]) {
      expect(historyExpansion(text), JSON.stringify(text)).toBeNull();
    }
  });

  it("still expands where the exceptions do not hold", () => {
    expect(historyExpansion("echo ${x}!a"), "`{` not after `$`").toBe("!a");
    expect(historyExpansion("echo [!a"), "`[` without a closing `]`").toBe("!a");
    expect(historyExpansion("echo \"\\\"!x\""), "an escaped quote keeps the string open").toBe("!x\"");
    expect(historyExpansion("echo 'a' !x"), "after a closed single-quoted string").toBe("!x");
    expect(historyExpansion("echo $'a\\'' !x"), "an escaped quote inside $'…' does not end it").toBe("!x");
    expect(historyExpansion("echo \"a\" !x"), "after a closed double-quoted string").toBe("!x");
    expect(historyExpansion("echo \"'\" !x"), "a single quote inside double quotes is text").toBe("!x");
    expect(historyExpansion("echo 'a\\' !x"), "a backslash in single quotes is text: the quote ends there").toBe("!x");
    expect(historyExpansion("echo !\"x\""), "!\" expands outside double quotes").toBe('!"x"');
    expect(historyExpansion("echo {!x}"), "`{` not after `$`").toBe("!x}");
    expect(historyExpansion("echo $a!x"), "`$` two characters before is not `${`").toBe("!x");
    expect(historyExpansion("echo !x ]"), "a `]` without `[` before the `!`").toBe("!x");
  });
});
