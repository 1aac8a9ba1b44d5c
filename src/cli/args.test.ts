import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./args";

describe("parseCliArgs", () => {
  it("takes the task, provider, key and endpoint", () => {
    const options = parseCliArgs(["--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", "fix", "the bug"], { OPENAI_API_KEY: "k" });
    expect(options).toMatchObject({ task: "fix the bug", api: { provider: "openai", apiKey: "k", baseUrl: "http://127.0.0.1:9/v1" } });
  });

  it("passes the OpenAI API choice, and leaves it to the model and endpoint when absent", () => {
    expect(parseCliArgs(["--openai-api", "responses", "go"], {})).toMatchObject({ api: { openAiApi: "responses" } });
    const automatic = parseCliArgs(["go"], {});
    expect(automatic !== "help" && "openAiApi" in automatic.api).toBe(false);
  });

  it("refuses an OpenAI API it does not know, and a missing task", () => {
    expect(() => parseCliArgs(["--openai-api", "soap", "go"], {})).toThrow(/Unknown OpenAI API "soap": use chat or responses/);
    expect(() => parseCliArgs([], {})).toThrow(/No task given/);
  });
});
