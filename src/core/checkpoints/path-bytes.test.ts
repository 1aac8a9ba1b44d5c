import { describe, expect, it } from "vitest";
import { prng } from "../../../test/support/prng";
import { decodeBytes, encodeText, fsPath, shownPath } from "./path-bytes";

/** The bytes a string from decodeBytes goes back to git or the file system as. */
const back = (text: string) => Buffer.from(encodeText(text));

describe("names as bytes", () => {
  it("keeps a Latin-1 name's bytes from git's output to git's input and fs calls, and shows the byte", () => {
    const output = Buffer.concat([Buffer.from("? "), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]), Buffer.from("\0? plain.txt\0")]);
    const text = decodeBytes(output);
    const [cafe, plain] = text.split("\0").map((record) => record.slice(2));
    expect(plain).toBe("plain.txt");
    expect(cafe).not.toContain("\ufffd");
    expect(back(text)).toEqual(output);
    expect(fsPath(`/w/${cafe}`)).toEqual(Buffer.from("/w/caf\xe9.txt", "latin1"));
    expect(shownPath(cafe as string)).toBe("caf\\xe9.txt");
  });

  it("leaves UTF-8 as it is: the same string, given back as a string", () => {
    for (const name of ["plain.txt", "café.txt", "日本語/ファイル.md", "emoji 💀 🙂.txt", "a\u{10ffff}b"]) {
      const bytes = Buffer.from(name, "utf8");
      expect(decodeBytes(bytes)).toBe(name);
      expect(encodeText(name)).toBe(name);
      expect(fsPath(name)).toBe(name);
      expect(shownPath(name)).toBe(name);
    }
  });

  it("tells an escaped byte from the second half of a real character (💀 is \\ud83d\\udc80)", () => {
    const bytes = Buffer.concat([Buffer.from("💀"), Buffer.from([0x80]), Buffer.from("💀"), Buffer.from([0xff, 0xfe])]);
    const text = decodeBytes(bytes);
    expect(back(text)).toEqual(bytes);
    expect(shownPath(text)).toBe("💀\\x80💀\\xff\\xfe");
  });

  it("escapes what is not shortest-form UTF-8: overlong forms, surrogates, past U+10FFFF, cut-off sequences", () => {
    const cases = [
      [0xc0, 0xaf], // overlong "/"
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80], // a surrogate
      [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
      [0xe2, 0x82], // cut off
      [0xf0, 0x9f, 0x92], // cut off before a NUL
      [0x80, 0xbf, 0xf5, 0xff],
    ];
    for (const bytes of cases) {
      const buffer = Buffer.concat([Buffer.from("x"), Buffer.from(bytes), Buffer.from("\0y")]);
      const text = decodeBytes(buffer);
      expect(back(text)).toEqual(buffer);
      expect(text.endsWith("\0y")).toBe(true);
      expect(shownPath(text.slice(0, -2))).toBe(`x${bytes.map((b) => `\\x${b.toString(16)}`).join("")}`);
    }
  });

  it("gives back exactly the bytes it was given, for any bytes", () => {
    const random = prng(29);
    const wrong: string[] = [];
    for (let n = 0; n < 1000; n++) {
      const length = Math.floor(random() * 40);
      // Mostly bytes around the interesting ranges: ASCII, continuations, lead bytes, NUL.
      const pool = [0x00, 0x2f, 0x61, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
      const bytes = Buffer.from(Array.from({ length }, () => (random() < 0.5 ? (pool[Math.floor(random() * pool.length)] as number) : Math.floor(random() * 256))));
      const text = decodeBytes(bytes);
      if (!back(text).equals(bytes) || text.split("\0").length !== bytes.filter((b) => b === 0).length + 1) wrong.push(bytes.toString("hex"));
    }
    expect(wrong).toEqual([]);
  });
});
