import { describe, expect, it } from "vitest";
import { withoutOptionList } from "./offered-options";

const OPTIONS = ["Use a cache", "Keep it simple"];

describe("the options a model also wrote into its text", () => {
  it("are taken out of the text, with a bare Options: line leading them", () => {
    const text = "I looked at the parser.\n\nOptions:\n1. Use a cache\n2. **Keep it simple**.\n\nWhich do you prefer?";
    expect(withoutOptionList(text, OPTIONS)).toBe("I looked at the parser.\n\nWhich do you prefer?");
    expect(withoutOptionList("Pick one:\n- use a cache\n\n- Keep it simple", OPTIONS)).toBe("Pick one:");
  });

  it("stay when an item says more than its option, when only one of several is listed, or inside code", () => {
    const explained = "1. Use a cache: faster, more code\n2. Keep it simple: slower";
    expect(withoutOptionList(explained, OPTIONS)).toBe(explained);
    const one = "Steps:\n- Use a cache\n- Write tests";
    expect(withoutOptionList(one, OPTIONS)).toBe(one);
    const code = "```\n- Use a cache\n- Keep it simple\n```";
    expect(withoutOptionList(code, OPTIONS)).toBe(code);
  });

  it("leave a text without options alone, and take a single option's own line", () => {
    expect(withoutOptionList("1. Use a cache\n2. Keep it simple", [])).toBe("1. Use a cache\n2. Keep it simple");
    expect(withoutOptionList("Ready.\n- Go ahead", ["Go ahead"])).toBe("Ready.");
  });

  it("ends a list at the first line that is not an item: later lists are judged apart", () => {
    expect(withoutOptionList("- Use a cache\nA remark.\n- Keep it simple", OPTIONS)).toBe("- Use a cache\nA remark.\n- Keep it simple");
  });
});
