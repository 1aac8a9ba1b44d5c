import { describe, expect, it } from "vitest";
import { isPrintOnlySedScript } from "./sed-script";

describe("isPrintOnlySedScript", () => {
  it.each(["p", "1,20p", "$p", "/foo/p", "/a/,/b/d", "\\,x,p", "s/a/b/", "s|a/b|c|g", "s/a\\/b/c/2p", "y/abc/xyz/", "1~2p;3q", "/x/!d", "/x/{p;q}", "s/(a)/\\1/gI"])(
    "%j only prints",
    (script) => expect(isPrintOnlySedScript(script)).toBe(true),
  );

  it.each(["w out", "1w out", "s/a/b/w out", "s/a/b/e", "e id", "1e rm -rf ~", "r /etc/passwd", "R f", "W f", "s/a/b", "s/a", "a\\text", ":a;ba", "#n"])(
    "%j may do more",
    (script) => expect(isPrintOnlySedScript(script)).toBe(false),
  );
});
