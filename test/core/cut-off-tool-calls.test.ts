/**
 * An answer that ends inside a tool call (the output limit, an early end_turn, a lost stream)
 * must never run that call: a cut-short file or command does damage. Through the real Controller,
 * SDKs and scripted model server, for each wire protocol.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiConfiguration } from "../../src/api";
import { CUT_OFF_ROW_TEXT } from "../../src/core/task/tool-executor";
import { historyProblems } from "../support/history-checks";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

const protocols: { name: string; provider: "anthropic" | "openai"; api?: Partial<ApiConfiguration> }[] = [
  { name: "anthropic", provider: "anthropic" },
  { name: "openai chat", provider: "openai", api: { openAiApi: "chat" } },
  { name: "openai responses", provider: "openai", api: { openAiApi: "responses" } },
];

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

const completion = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };
const yolo = { yolo: true } as const;

/** Everything the model was sent in request n, flattened. */
function sentText(h: Harness, n: number): string {
  const body = h.server.requests[n]?.body;
  return JSON.stringify(body?.messages ?? body?.input ?? []);
}

describe.each(protocols)("a tool call cut off ($name)", ({ provider, api }) => {
  async function open(options: Omit<HarnessOptions, "provider">): Promise<Harness> {
    harness = await startHarness({ provider, api, answer: approveAll, ...options, settings: { ...yolo, ...options.settings } });
    return harness;
  }

  it("at the output limit, write_to_file leaves the existing file alone and the model learns why", async () => {
    const original = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const h = await open({
      turns: [
        { text: "Rewriting it.\n<write_to_file>\n<path>big.txt</path>\n<content>\nline 1\nline 2\nline 3", stopReason: "max_tokens" },
        completion,
      ],
    });
    await writeFile(join(h.workspace, "big.txt"), original);
    expect(await h.run("Rewrite big.txt")).toBe("completed");
    expect(await readFile(join(h.workspace, "big.txt"), "utf8")).toBe(original);
    const second = sentText(h, 1);
    expect(second).toContain("was NOT run and nothing was changed");
    expect(second).toContain("output token limit");
    expect(second).toContain("replace_in_file");
    expect(second).not.toContain("successfully saved");
    const row = h.messages.find((m) => m.type === "say" && m.say === "tool" && m.tool?.tool === "write_to_file");
    expect(row?.text).toBe(CUT_OFF_ROW_TEXT);
    expect(row?.tool?.cutOff).toBe(true);
    expect(row?.partial).toBeFalsy();
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });

  it("an answer that ends mid-tag creates no half-written file", async () => {
    const h = await open({
      turns: [{ text: "<write_to_file>\n<path>new.txt</path>\n<content>\nfirst half\n</content>" }, completion],
    });
    expect(await h.run("Create new.txt")).toBe("completed");
    expect(existsSync(join(h.workspace, "new.txt"))).toBe(false);
    expect(sentText(h, 1)).toContain("closing tag </write_to_file> never arrived");
  });

  it("a command cut mid-line never runs its fragment", async () => {
    const h = await open({
      turns: [
        { text: "<execute_command>\n<command>touch ran-fragment && rm -rf important", stopReason: "max_tokens" },
        completion,
      ],
    });
    await writeFile(join(h.workspace, "important"), "keep me");
    expect(await h.run("Clean up")).toBe("completed");
    expect(existsSync(join(h.workspace, "ran-fragment"))).toBe(false);
    expect(existsSync(join(h.workspace, "important"))).toBe(true);
    expect(sentText(h, 1)).toContain("the <command> value was still open");
  });

  it("replace_in_file cut off inside its last block is not applied, even though a closed call would be", async () => {
    const h = await open({
      turns: [
        { text: "<replace_in_file>\n<path>a.txt</path>\n<diff>\n------- SEARCH\noriginal\n=======\nchang", stopReason: "max_tokens" },
        { text: "<replace_in_file>\n<path>a.txt</path>\n<diff>\n------- SEARCH\noriginal\n=======\nchanged\n</diff>\n</replace_in_file>" },
        completion,
      ],
    });
    await writeFile(join(h.workspace, "a.txt"), "original\n");
    expect(await h.run("Change a.txt")).toBe("completed");
    // The second, closed call lacks its REPLACE marker too, and is applied.
    expect(await readFile(join(h.workspace, "a.txt"), "utf8")).toBe("changed\n");
    expect(sentText(h, 1)).toContain("was NOT run");
  });

  it("a harmless read still runs when its required parameters closed", async () => {
    const h = await open({ turns: [{ text: "<read_file>\n<path>notes.txt</path>\n", stopReason: "max_tokens" }, completion] });
    await writeFile(join(h.workspace, "notes.txt"), "the secret word is plum\n");
    expect(await h.run("Read notes.txt")).toBe("completed");
    expect(sentText(h, 1)).toContain("the secret word is plum");
  });

  it("a read whose path was still open is not run", async () => {
    const h = await open({ turns: [{ text: "<read_file>\n<path>notes.t", stopReason: "max_tokens" }, completion] });
    await writeFile(join(h.workspace, "notes.t"), "should not be read\n");
    expect(await h.run("Read notes")).toBe("completed");
    expect(sentText(h, 1)).not.toContain("should not be read");
    expect(sentText(h, 1)).toContain("the <path> value was still open");
  });

  it("a lost stream keeps the tool that ran, and does not run the one it cut", async () => {
    const h = await open({
      turns: [
        { kind: "fault", fault: "drop_connection", text: "<read_file>\n<path>a.txt</path>\n</read_file>\n<write_to_file>\n<path>a.txt</path>\n<content>\ncut" },
        completion,
      ],
    });
    await writeFile(join(h.workspace, "a.txt"), "original\n");
    expect(await h.run("Look at a.txt")).toBe("completed");
    expect(await readFile(join(h.workspace, "a.txt"), "utf8")).toBe("original\n");
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });

  it("native: arguments cut off mid-JSON are never run", async () => {
    const h = await open({
      settings: { toolCallMode: "native" },
      turns: [
        {
          toolCalls: [{ name: "write_to_file", input: {}, argumentsText: '{"path":"big.txt","content":"line 1\\nline' }],
          stopReason: "max_tokens",
        },
        { toolCalls: [{ name: "attempt_completion", input: { result: "Done." } }] },
      ],
    });
    await writeFile(join(h.workspace, "big.txt"), "keep\n");
    expect(await h.run("Rewrite big.txt")).toBe("completed");
    expect(await readFile(join(h.workspace, "big.txt"), "utf8")).toBe("keep\n");
    expect(sentText(h, 1)).toContain("its arguments are not complete JSON");
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });

  it("native: a tool named like an Object.prototype member gets an error result, and the history stays paired", async () => {
    const h = await open({
      settings: { toolCallMode: "native" },
      turns: [
        { toolCalls: [{ name: "constructor", input: {} }, { name: "toString", input: {} }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "Done." } }] },
      ],
    });
    expect(await h.run("Do it")).toBe("completed");
    expect(sentText(h, 1)).toContain("There is no tool named 'constructor'");
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });
});
