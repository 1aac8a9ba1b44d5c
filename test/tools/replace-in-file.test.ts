/**
 * replace_in_file inside whole tasks: the real Controller and Task, the real provider SDKs and the
 * scripted model server, for both providers.
 */
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TOOLS } from "../../src/core/task/tools/registry";
import { replaceInFileTool } from "../../src/core/task/tools/replace-in-file";
import { historyProblems } from "../support/history-checks";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

const providers = ["anthropic", "openai"] as const;
const tools = { ...TOOLS, replace_in_file: replaceInFileTool };
let harness: Harness | undefined;

afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

async function open(options: Omit<HarnessOptions, "tools">): Promise<Harness> {
  harness = await startHarness({ ...options, tools });
  return harness;
}

/** The text of request n as the model received it (JSON string escapes undone by comparing escaped forms). */
function requestContains(h: Harness, n: number, snippet: string): boolean {
  return JSON.stringify(h.server.requests[n]?.body.messages ?? []).includes(JSON.stringify(snippet).slice(1, -1));
}

const ORIGINAL = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n";
const block = (search: string, replace: string) => `------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE`;
const GOOD_DIFF = block("def area(w, h):\n    return w * h", 'def area(w, h):\n    """Rectangle area."""\n    return w * h');
const EDITED = ORIGINAL.replace("def area(w, h):\n", 'def area(w, h):\n    """Rectangle area."""\n');
const xmlCall = (diff: string) => `Editing.\n<replace_in_file>\n<path>shapes.py</path>\n<diff>\n${diff}\n</diff>\n</replace_in_file>`;
const completion = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

async function expectHealthyHistory(h: Harness): Promise<void> {
  await h.controller.currentTask?.messages.flush();
  expect(historyProblems(h.apiHistory())).toEqual([]);
}

describe.each(providers)("replace_in_file through %s", (provider) => {
  it("edits the file from an XML call streamed in small chunks, and tells the model the new text", async () => {
    const h = await open({ provider, answer: approveAll, turns: [{ text: xmlCall(GOOD_DIFF), chunkSize: 9 }, completion] });
    await writeFile(join(h.workspace, "shapes.py"), ORIGINAL);
    expect(await h.run("Document area()")).toBe("completed");

    expect(await readFile(join(h.workspace, "shapes.py"), "utf8")).toBe(EDITED);
    const approval = h.asks.find((a) => a.ask === "tool");
    expect(approval?.tool).toEqual({ tool: "replace_in_file", path: "shapes.py", content: GOOD_DIFF, outsideWorkspace: false });
    expect(requestContains(h, 1, "The edit to shapes.py was applied (1 block).")).toBe(true);
    expect(requestContains(h, 1, '2|    """Rectangle area."""\n3|    return w * h')).toBe(true);
    await expectHealthyHistory(h);
  });

  it("edits the file from a native tool call", async () => {
    const h = await open({
      provider,
      answer: approveAll,
      settings: { toolCallMode: "native" },
      turns: [
        { toolCalls: [{ id: "call_edit", name: "replace_in_file", input: { path: "shapes.py", diff: GOOD_DIFF } }] },
        { toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "Done." } }] },
      ],
    });
    await writeFile(join(h.workspace, "shapes.py"), ORIGINAL);
    expect(await h.run("Document area()")).toBe("completed");
    expect(await readFile(join(h.workspace, "shapes.py"), "utf8")).toBe(EDITED);
    expect(requestContains(h, 1, "The edit to shapes.py was applied")).toBe(true);
    await expectHealthyHistory(h);
  });

  it("sends a failed block back to the model, leaves the file byte-identical and counts a mistake; the corrected call lands", async () => {
    const badDiff = `${block("def perimeter(w, h):", "def perimeter(w: float, h: float):")}\n${block("def area(width, height):\n    return width * height", "x")}`;
    const seenAtRetry: { bytes?: Buffer; mistakes?: number } = {};
    const h = await open({
      provider,
      answer: (ask) => {
        if (ask.ask === "tool") {
          seenAtRetry.bytes = readFileSync(join(h.workspace, "shapes.py"));
          seenAtRetry.mistakes = h.controller.currentTask?.state.consecutiveMistakeCount;
        }
        return { type: "yes" };
      },
      turns: [{ text: xmlCall(badDiff) }, { text: xmlCall(GOOD_DIFF) }, completion],
    });
    await writeFile(join(h.workspace, "shapes.py"), ORIGINAL);
    expect(await h.run("Document area()")).toBe("completed");

    expect(requestContains(h, 1, 'Block 2 (SEARCH starting "def area(width, height):") was not found in the file.')).toBe(true);
    expect(requestContains(h, 1, "The closest region of the file is lines 1-2")).toBe(true);
    expect(requestContains(h, 1, "1|def area(w, h):\n2|    return w * h")).toBe(true);
    expect(requestContains(h, 1, 'Block 1 (SEARCH starting "def perimeter(w, h):") matched line 5 exactly.')).toBe(true);
    expect(seenAtRetry.bytes?.equals(Buffer.from(ORIGINAL))).toBe(true);
    expect(seenAtRetry.mistakes).toBe(1);
    expect(h.asks.filter((a) => a.ask === "tool")).toHaveLength(1);
    expect(h.messages.some((m) => m.type === "say" && m.say === "error" && m.text?.includes("was not found"))).toBe(true);

    expect(await readFile(join(h.workspace, "shapes.py"), "utf8")).toBe(EDITED);
    expect(h.controller.currentTask?.state.consecutiveMistakeCount).toBe(0);
    await expectHealthyHistory(h);
  });

  it("leaves the file untouched when the person rejects the edit", async () => {
    const h = await open({
      provider,
      answer: (ask) => (ask.ask === "tool" ? { type: "no", text: "Not like that." } : { type: "yes" }),
      turns: [{ text: xmlCall(GOOD_DIFF) }, completion],
    });
    await writeFile(join(h.workspace, "shapes.py"), ORIGINAL);
    expect(await h.run("Document area()")).toBe("completed");
    expect(await readFile(join(h.workspace, "shapes.py"), "utf8")).toBe(ORIGINAL);
    expect(requestContains(h, 1, "The person denied this operation.")).toBe(true);
    expect(requestContains(h, 1, "Not like that.")).toBe(true);
    await expectHealthyHistory(h);
  });
});
