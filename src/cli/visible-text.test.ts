import { describe, expect, it } from "vitest";
import { visibleText } from "./visible-text";

describe("visibleText", () => {
  it("shows the sequences that would act on a terminal as signs: clipboard, title, colour, overwrite", () => {
    expect(visibleText("\u001b]52;c;cm0gLXJmIH4=\u0007")).toBe("␛]52;c;cm0gLXJmIH4=␇");
    expect(visibleText("\u001b]0;innocent\u001b\\")).toBe("␛]0;innocent␛\\");
    expect(visibleText("touch pwned\recho hello")).toBe("touch pwned␍echo hello");
    expect(visibleText("\u001b[2K\u001b[1Aok")).toBe("␛[2K␛[1Aok");
    expect(visibleText("a\u0000b\u0008c\u007f")).toBe("a␀b␈c␡");
  });

  it("shows C1 controls (a one-byte CSI) and the bidi overrides by their code point", () => {
    expect(visibleText("\u009b31m")).toBe("<U+009B>31m");
    expect(visibleText("ls \u202egnp.exe")).toBe("ls <U+202E>gnp.exe");
    expect(visibleText("\u2066x\u2069")).toBe("<U+2066>x<U+2069>");
  });

  it("keeps line breaks, tabs and every printable character, and reads CRLF as a line end", () => {
    expect(visibleText("one\r\ntwo\n\tthree ✔ é 日本")).toBe("one\ntwo\n\tthree ✔ é 日本");
    expect(visibleText("")).toBe("");
  });
});
