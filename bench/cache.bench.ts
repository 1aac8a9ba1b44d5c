/**
 * What a person pays for input, with prompt caching: a scripted 30-round task (reads, re-reads
 * after edits, commands, searches) through the real Controller, Task and Anthropic SDK against the
 * scripted model server, its 30 request bodies replayed through a model of Anthropic's prompt cache
 * (prompt-cache-model.ts). The ideal is the same conversation appended to only.
 * Printed: cost against the ideal (goal at most 1.1x), and the requests that changed an earlier
 * message of the request before them (goal 0 while the context has room: this task never fills it).
 * Tokens are characters / 4. `npm run bench cache`.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ScriptTurn } from "../test/support/script";
import { approveAll, startHarness } from "../test/support/task-harness";
import { DEFAULT_AUTO_APPROVAL } from "../src/shared/settings";
import { cacheBill, promptOf, type Unit } from "./prompt-cache-model";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const FILES = ["src/core/task/index.ts", "src/core/context/rules.ts", "src/core/storage/journal.ts", "src/core/task/tool-executor.ts"];
const TASK = "Review four files, bump each one's bench marker as you go, and check the tree with a command and a search now and then.";
const TARGET_RATIO = 1.1;

type Step = { read: number } | { edit: number } | { command: string } | { search: string } | { done: true };
/** 30 requests: 17 reads (re-reads after edits among them), 5 edits, 4 commands, 3 searches, the completion. */
const PLAN: Step[] = [
  { read: 0 }, { read: 1 }, { search: "withStateLock" }, { read: 2 }, { edit: 0 }, { read: 0 }, { command: "git status --short | head -3" },
  { read: 3 }, { edit: 1 }, { read: 1 }, { read: 0 }, { search: "class ReadLedger" }, { edit: 2 }, { read: 2 }, { command: "ls src/core | head -5" },
  { read: 3 }, { edit: 3 }, { read: 3 }, { read: 1 }, { edit: 0 }, { read: 0 }, { command: "wc -l src/core/task/index.ts" }, { read: 2 },
  { search: "replaceApiMessage" }, { read: 1 }, { read: 0 }, { command: "echo checked" }, { read: 3 }, { read: 2 }, { done: true },
];

const marker = (n: number) => `// bench marker ${n}`;

export async function run(): Promise<void> {
  const h = await startHarness({
    provider: "anthropic",
    turns: script(),
    answer: approveAll,
    settings: { autoApproval: { ...DEFAULT_AUTO_APPROVAL, editFiles: true, executeSafeCommands: true } },
  });
  try {
    await copyFiles(h.workspace);
    const outcome = await h.run(TASK);
    if (outcome !== "completed") throw new Error(`the bench task ended ${outcome}`);
    const requests = h.server.requests;
    if (requests.length !== PLAN.length) throw new Error(`expected ${PLAN.length} requests, got ${requests.length}`);
    report(requests.map((r) => promptOf(r.body)));
  } finally {
    await h.dispose();
  }
}

function report(prompts: readonly Unit[][]): void {
  const { cost, ideal, readChars, writeChars, changed } = cacheBill(prompts);
  const ratio = cost / ideal;
  const k = (chars: number) => `${Math.round(chars / 4 / 1000).toLocaleString("en-US")}K`;
  console.log(`a ${prompts.length}-request task (reads, re-reads after edits, commands, searches) through a model of Anthropic's prompt cache:`);
  console.log(`  input cost ${Math.round(cost).toLocaleString("en-US")} token-units (cache reads ${k(readChars)} tokens at 0.1x, writes ${k(writeChars)} at 1.25x), append-only ideal ${Math.round(ideal).toLocaleString("en-US")}`);
  console.log(`  ${ratio <= TARGET_RATIO ? "PASS" : "MISS"} cost / ideal = ${ratio.toFixed(3)}x (goal at most ${TARGET_RATIO}x)`);
  console.log(`  ${changed.length === 0 ? "PASS" : "MISS"} requests that changed an earlier message: ${changed.length}${changed.length ? ` (${changed.join(", ")})` : ""} (goal 0 before any shrink)`);
}

/** The model's turns, one per step. */
function script(): ScriptTurn[] {
  const versions = FILES.map(() => 0);
  return PLAN.map((step): ScriptTurn => {
    const usage = { inputTokens: 1000, outputTokens: 60 };
    if ("read" in step) {
      const path = FILES[step.read] as string;
      return { text: `Reading ${path}.\n<read_file>\n<path>${path}</path>\n</read_file>`, usage };
    }
    if ("edit" in step) {
      const path = FILES[step.edit] as string;
      const from = versions[step.edit] as number;
      versions[step.edit] = from + 1;
      const diff = `------- SEARCH\n${marker(from)}\n=======\n${marker(from + 1)}\n+++++++ REPLACE`;
      return { text: `Bumping the marker of ${path}.\n<replace_in_file>\n<path>${path}</path>\n<diff>\n${diff}\n</diff>\n</replace_in_file>`, usage };
    }
    if ("command" in step) return { text: `<execute_command>\n<command>${step.command}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`, usage };
    if ("search" in step) return { text: `<search_files>\n<path>src</path>\n<regex>${step.search}</regex>\n</search_files>`, usage };
    return { text: "<attempt_completion>\n<result>Reviewed and bumped.</result>\n</attempt_completion>", usage };
  });
}

/** The four files in the workspace, each with its marker line. */
async function copyFiles(workspace: string): Promise<void> {
  for (const file of FILES) {
    await mkdir(dirname(join(workspace, file)), { recursive: true });
    await writeFile(join(workspace, file), `${marker(0)}\n${await readFile(join(REPO, file), "utf8")}`);
  }
}
