import * as path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { param, readParams, type ParamValues } from "./params";
import type { ResolvedToolPath } from "../../files/paths";
import { WorkspaceRoots } from "../../util/workspace-roots";

const tool = {
  name: "demo_tool",
  params: [
    param.path("path", "A file.", { required: true }),
    param.number("line", "A line.", { whole: true, min: 1 }),
    param.number("timeout", "Seconds.", { above: 0, max: 60, unit: "seconds" }),
    param.boolean("recursive", "Deep or not."),
    param.choice("mode", "How.", ["fast", "slow"]),
    param.json("tags", "Tags.", { shape: "a JSON array of strings", fits: (v: unknown): v is string[] => Array.isArray(v) && v.every((t) => typeof t === "string") }),
    param.text("note", "Anything."),
  ],
} as const;

const read = (raw: Record<string, string>) => readParams(tool, { path: "a.txt", ...raw }, WorkspaceRoots.single("/ws"));

describe("tool parameters", () => {
  it("types each value by its spec: required ones always there, optional ones maybe", () => {
    expectTypeOf<ParamValues<typeof tool.params>>().toEqualTypeOf<{
      readonly path: ResolvedToolPath;
      readonly line: number | undefined;
      readonly timeout: number | undefined;
      readonly recursive: boolean | undefined;
      readonly mode: "fast" | "slow" | undefined;
      readonly tags: string[] | undefined;
      readonly note: string | undefined;
    }>();
  });

  it("reads every kind from the model's text, paths resolved against the workspace", async () => {
    const values = await read({ line: " 12 ", timeout: "2.5", recursive: "TRUE", mode: "Slow", tags: '["a","b"]', note: "  as is  " });
    expect(values).toMatchObject({ line: 12, timeout: 2.5, recursive: true, mode: "slow", tags: ["a", "b"], note: "  as is  " });
    expect(values.path).toMatchObject({ absolute: path.resolve("/ws/a.txt"), relative: "a.txt" });
  });

  it("leaves out optional parameters that are absent or blank", async () => {
    expect(await read({ line: "", recursive: "  " })).toEqual({ path: expect.anything() });
  });

  it("names a missing required parameter as the model has always been told", async () => {
    await expect(readParams(tool, { path: " " }, WorkspaceRoots.single("/ws"))).rejects.toMatchObject({
      reason: "missing_param",
      message: "Missing value for the required parameter 'path' of demo_tool. Try again with every required parameter given in full.",
    });
  });

  it.each([
    [{ line: "0" }, 'line must be a whole number from 1 up; got "0".'],
    [{ line: "1.5" }, 'line must be a whole number from 1 up; got "1.5".'],
    [{ line: "99999999999999999999" }, /line must be a whole number/],
    [{ timeout: "0" }, 'timeout must be a number of seconds above 0 and at most 60; got "0".'],
    [{ timeout: "61" }, /at most 60/],
    [{ timeout: "soon" }, /timeout must be a number of seconds/],
    [{ recursive: "yes" }, 'recursive must be "true" or "false"; got "yes".'],
    [{ mode: "medium" }, 'mode must be "fast" or "slow"; got "medium".'],
    [{ tags: "[a" }, /^tags must be a JSON array of strings; it is not valid JSON \(/],
    [{ tags: "[1]" }, "tags must be a JSON array of strings."],
  ])("refuses %j with an error naming the parameter", async (raw, message) => {
    await expect(read(raw)).rejects.toMatchObject({ reason: "invalid_param", message });
  });
});
