import { describe, expect, it } from "vitest";
import { parseShell } from "./parse-shell";
import { staticText } from "./resolve-words";
import type { ParsedScript } from "./shell-script";

function parse(source: string): ParsedScript {
  const result = parseShell(source);
  if (!result.ok) throw new Error(result.error);
  return result.script;
}

/** Each command's arguments as fixed text (null where only known at run time). */
function argv(source: string): (string | null)[][] {
  return parse(source).commands.map((c) => c.args.map(staticText));
}

describe("parseShell", () => {
  it("removes quotes the way Bash does", () => {
    expect(argv(`\\rm 'r''m' "r"m $'\\x72m' "a\\"b" 'a\\b' a\\ b`)).toEqual([["rm", "rm", "rm", "rm", 'a"b', "a\\b", "a b"]]);
  });

  it("expands braces into separate arguments, leaving quoted and escaped braces alone", () => {
    expect(argv("{rm,-rf,/}")).toEqual([["rm", "-rf", "/"]]);
    expect(argv("echo a{b,c{d,e}}f")).toEqual([["echo", "abf", "acdf", "acef"]]);
    expect(argv(`echo "{a,b}" \\{a,b} {a} {1..3}`)).toEqual([["echo", "{a,b}", "{a,b}", "{a}", "{1..3}"]]);
  });

  it("keeps variables and substitutions unknown", () => {
    expect(argv('echo $X "${Y}" $(date) $((1+2))')).toEqual([["date"], ["echo", null, null, null, null]]);
  });

  it("cuts command text by byte offsets, so non-ASCII text stays intact", () => {
    expect(parse('echo "héllo wörld" > ö.txt; ls ö').commands.map((c) => c.text)).toEqual(['echo "héllo wörld" > ö.txt', "ls ö"]);
  });

  it("groups pipeline stages, nested commands included", () => {
    const script = parse("curl x | (cd /tmp; sh) | tee log");
    expect(script.pipelines).toHaveLength(1);
    expect(script.pipelines[0]?.stages.map((s) => s.map((c) => c.text))).toEqual([["curl x"], ["cd /tmp", "sh"], ["tee log"]]);
  });

  it("follows cd within a shell but not out of a subshell", () => {
    const script = parse("cd a; (cd b; ls); pwd");
    const steps = script.commands.map((c) => c.cd.map((s) => (s.kind === "to" ? staticText(s.target) : s.kind)));
    expect(steps).toEqual([[], ["a"], ["a", "b"], ["a"]]);
  });

  it("marks self-calls of a function that fork", () => {
    // `&` sends the whole pipeline `:|:` to the background.
    const [first, second, call] = parse(":(){ :|:& };:").commands;
    expect(first).toMatchObject({ functions: [":"], piped: true, background: true });
    expect(second).toMatchObject({ functions: [":"], piped: true, background: true });
    expect(call).toMatchObject({ functions: [], piped: false, background: false });
    expect(parse("f() { f; }").commands[0]).toMatchObject({ functions: ["f"], piped: false, background: false });
  });

  it("reports redirections with their operators and here-document bodies", () => {
    const script = parse("cat <<EOF > out 2>&1\nhello\nEOF");
    expect(script.redirections.map((r) => [r.op, r.fd, staticText(r.target)])).toEqual([
      ["<<", null, "EOF"],
      [">", null, "out"],
      [">&", "2", "1"],
    ]);
    expect(staticText(script.redirections[0]?.heredoc ?? { raw: "", parts: [] })).toBe("hello\n");
  });

  it("finds substitutions in every corner", () => {
    const corners = ["x=$(a)", "echo ${v:-$(a)}", "echo $(( $(a) ))", "[[ $(a) ]]", "case $(a) in x) ;; esac", "for i in $(a); do :; done", "cat < $(a)", "declare y=$(a)"];
    for (const source of corners) {
      const script = parse(source);
      expect(script.hasSubstitution, source).toBe(true);
      expect(script.commands.map((c) => c.text), source).toContain("a");
    }
  });

  it("returns the parser's message for broken input", () => {
    expect(parseShell("echo 'open")).toEqual({ ok: false, error: expect.stringContaining("without closing quote") });
    expect(parseShell("a )")).toEqual({ ok: false, error: expect.stringContaining(")") });
  });
});
