import { describe, expect, it } from "vitest";
import { isUnfinishedJson, NativeToolCallAccumulator } from "./native-tool-calls";

describe("isUnfinishedJson", () => {
  it.each(['{"path":"a', '{"path":"a.txt","content":"x\\', '{"a":[1,2', '{"a":{"b":', "["])("%s is the start of a value cut off", (text) => {
    expect(isUnfinishedJson(text)).toBe(true);
  });
  it.each(['{"a":1}', '{"a":1}}', "not json", '{"a":1} {', "", "   ", "{'a': 1"])("%s is not", (text) => {
    expect(isUnfinishedJson(text)).toBe(false);
  });
});

describe("NativeToolCallAccumulator", () => {
  it("marks a call whose arguments stop mid-JSON as cut off, and one with bad JSON as invalid only", () => {
    const calls = new NativeToolCallAccumulator();
    calls.add({ type: "tool_calls", index: 0, id: "a", name: "write_to_file", argumentsDelta: '{"path":"x","content":"li' });
    calls.add({ type: "tool_calls", index: 1, id: "b", name: "read_file", argumentsDelta: "{path: x}" });
    const [cut, bad] = calls.finish("max_tokens").map((f) => f.call);
    expect(cut?.cutOff).toEqual({ reason: "max_tokens", incompleteArguments: true });
    expect(bad?.cutOff).toBeUndefined();
    expect(bad?.params.__invalid_arguments).toBe("{path: x}");
  });
});
