/**
 * Token economy of the context: the same scripted 20-round task (it reads four real files of this
 * repository again and again and edits three of them now and then) through the real Controller,
 * Task and SDK against the scripted model server, in a workspace holding this repository's src/.
 *
 * - Tandem: the sum over the 20 requests of each request body as the server received it (system
 *   prompt, tools, messages; whatever Tandem puts in them, so environment details added to the
 *   loop are counted here as soon as they exist).
 * - A Cline-shaped baseline, built here from the same rounds: the same request bodies, but every
 *   read kept in full (Cline keeps them until the window is nearly full), lines numbered as Cline
 *   does (`12 | text`), each edit's result the whole file as saved (as Cline returns it), and
 *   Cline's environment details in every user message (visible files, open tabs, time, context
 *   window usage, mode; the first one also lists the workspace's files, up to 200). The system
 *   prompt is Tandem's: only the context differs.
 *
 * Compared: the input tokens summed, and what both cost through a model of Anthropic's prompt cache
 * (prompt-cache-model.ts; the baseline with Cline's breakpoints, which are Tandem's): what a person
 * pays is mostly cached input. Tokens are counted as characters / 4: no tokenizer is installed. Also printed: what read_file's
 * line numbers cost on these files in the old padded form, Cline's and the current one.
 * `npm run bench context`.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ApiMessage } from "../src/api/types";
import type { RecordedRequest, ScriptTurn } from "../test/support/script";
import { approveAll, startHarness } from "../test/support/task-harness";
import { DEFAULT_AUTO_APPROVAL } from "../src/shared/settings";
import { cacheBill, promptOf, type Unit } from "./prompt-cache-model";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const FILES = ["src/core/task/index.ts", "src/core/context/rules.ts", "src/core/storage/journal.ts", "src/core/task/tool-executor.ts"];
const TASK = "Review the task loop, the rules reader, the journal and the tool executor, and bump each file's bench marker as you go.";
const TARGET_RATIO = 0.5;
const WINDOW = 200_000;

type Step = { read: number } | { edit: number } | { done: true };
/** 20 requests: 16 reads of four files (most of them repeats), 3 edits, the completion. */
const PLAN: Step[] = [
  { read: 0 }, { read: 1 }, { read: 2 }, { read: 0 }, { read: 1 }, { edit: 0 }, { read: 0 }, { read: 2 }, { read: 3 }, { read: 0 },
  { read: 1 }, { edit: 1 }, { read: 1 }, { read: 0 }, { read: 2 }, { read: 3 }, { read: 0 }, { edit: 2 }, { read: 2 }, { done: true },
];

const marker = (n: number) => `// bench marker ${n}`;
const tokens = (chars: number) => Math.ceil(chars / 4);

export async function run(): Promise<void> {
  const { turns, texts, edited } = script();
  const h = await startHarness({ provider: "anthropic", turns, answer: approveAll, settings: { autoApproval: { ...DEFAULT_AUTO_APPROVAL, editFiles: true } } });
  try {
    const listing = await copySources(h.workspace);
    const outcome = await h.run(TASK);
    if (outcome !== "completed") throw new Error(`the bench task ended ${outcome}`);
    const requests = h.server.requests;
    if (requests.length !== PLAN.length) throw new Error(`expected ${PLAN.length} requests, got ${requests.length}`);

    const tandem = requests.map((r) => tokens(JSON.stringify(r.body).length));
    const baseline = await clineShaped(requests, { texts, edited }, listing, h.workspace);
    const withoutEnv = await clineShaped(requests, { texts, edited }, undefined, h.workspace);
    const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
    const ratio = sum(tandem) / sum(baseline.totals);
    const cached = cacheBill(requests.map((r) => promptOf(r.body))).cost / cacheBill(baseline.prompts).cost;
    console.log(`the same ${PLAN.length}-request task (16 reads of 4 files of this repository, 3 edits), total input tokens (chars/4):`);
    console.log(`  Tandem                      ${sum(tandem).toLocaleString("en-US")} (first request ${tandem[0]?.toLocaleString("en-US")}, last ${tandem.at(-1)?.toLocaleString("en-US")})`);
    console.log(`  Cline-shaped baseline       ${sum(baseline.totals).toLocaleString("en-US")} (first request ${baseline.totals[0]?.toLocaleString("en-US")}, last ${baseline.totals.at(-1)?.toLocaleString("en-US")})`);
    console.log(`    of which environment details ${sum(baseline.envTokens).toLocaleString("en-US")} (first request ${baseline.envTokens[0]?.toLocaleString("en-US")}, then about ${baseline.envTokens[1]?.toLocaleString("en-US")} a round)`);
    console.log(`    without them (duplicate reads and line numbers alone) ${sum(withoutEnv.totals).toLocaleString("en-US")}: Tandem is ${(sum(tandem) / sum(withoutEnv.totals)).toFixed(2)}x that`);
    console.log(`  Tandem / baseline = ${ratio.toFixed(2)}x uncached`);
    console.log(`  ${cached <= TARGET_RATIO ? "PASS" : "MISS"} Tandem / baseline = ${cached.toFixed(2)}x with Anthropic's prompt cache (prompt-cache-model.ts; goal at most ${TARGET_RATIO}x)`);
    await lineNumberCost();
  } finally {
    await h.dispose();
  }
}

/** The model's turns, and the text of each read's and each edit's file as it is at that point (for the baseline). */
function script(): { turns: ScriptTurn[]; texts: Map<number, { path: string; version: number }>; edited: Map<number, { path: string; version: number }> } {
  const versions = FILES.map(() => 0);
  const turns: ScriptTurn[] = [];
  const texts = new Map<number, { path: string; version: number }>();
  const edited = new Map<number, { path: string; version: number }>();
  PLAN.forEach((step, round) => {
    const usage = { inputTokens: 1000, outputTokens: 60 };
    if ("read" in step) {
      const path = FILES[step.read] as string;
      texts.set(round, { path, version: versions[step.read] as number });
      turns.push({ text: `Reading ${path}.\n<read_file>\n<path>${path}</path>\n</read_file>`, usage });
    } else if ("edit" in step) {
      const path = FILES[step.edit] as string;
      const from = versions[step.edit] as number;
      versions[step.edit] = from + 1;
      edited.set(round, { path, version: from + 1 });
      const diff = `------- SEARCH\n${marker(from)}\n=======\n${marker(from + 1)}\n+++++++ REPLACE`;
      turns.push({ text: `Bumping the marker of ${path}.\n<replace_in_file>\n<path>${path}</path>\n<diff>\n${diff}\n</diff>\n</replace_in_file>`, usage });
    } else {
      turns.push({ text: "<attempt_completion>\n<result>Reviewed and bumped.</result>\n</attempt_completion>", usage });
    }
  });
  return { turns, texts, edited };
}

/** This repository's src/ in the workspace, each of the four files with its marker line; returns the listing Cline would show. */
async function copySources(workspace: string): Promise<string[]> {
  const tracked = execFileSync("git", ["ls-files", "src"], { cwd: REPO, encoding: "utf8" }).split("\n").filter(Boolean);
  for (const file of tracked) {
    await mkdir(dirname(join(workspace, file)), { recursive: true });
    const text = await readFile(join(REPO, file), "utf8");
    await writeFile(join(workspace, file), FILES.includes(file) ? `${marker(0)}\n${text}` : text);
  }
  return tracked.sort();
}

/**
 * The baseline's request sizes: Tandem's request bodies with the messages Cline would send. The
 * assistant turns are taken from Tandem's last request (they are the same either way); each read
 * is the file's full text as it was then, each edit's result the whole file after it;
 * environment details go in every user message when `listing` is given.
 */
async function clineShaped(
  requests: readonly RecordedRequest[],
  { texts, edited }: { texts: Map<number, { path: string; version: number }>; edited: Map<number, { path: string; version: number }> },
  listing: string[] | undefined,
  workspace: string,
) {
  const sources = new Map<string, string>();
  for (const path of FILES) sources.set(path, await readFile(join(REPO, path), "utf8"));
  const totals: number[] = [];
  const envTokens: number[] = [];
  const messages: ApiMessage[] = [];
  const open: string[] = [];
  let lastSize = 0;
  const env = (first: boolean): string => {
    if (!listing) return "";
    const visible = open.at(-1) ?? "";
    const parts = [
      "<environment_details>",
      `# VSCode Visible Files\n${visible || "(No visible files)"}`,
      `\n# VSCode Open Tabs\n${open.join("\n") || "(No open tabs)"}`,
      `\n# Current Time\n${new Date().toLocaleString("en-US", { timeZone: "UTC" })} (UTC, UTC+0:00)`,
      ...(first ? [`\n# Current Working Directory (${workspace}) Files\n${clineListing(listing)}`] : []),
      `\n# Context Window Usage\n${lastSize.toLocaleString("en-US")} / ${WINDOW / 1000}K tokens used (${Math.round((lastSize / WINDOW) * 100)}%)`,
      "\n# Current Mode\nACT MODE",
      "</environment_details>",
    ];
    return parts.join("\n");
  };
  const firstEnv = env(true);
  messages.push({ role: "user", content: [{ type: "text", text: `<task>\n${TASK}\n</task>` }, ...(firstEnv ? [{ type: "text" as const, text: firstEnv }] : [])] });
  envTokens.push(tokens(firstEnv.length));
  const last = requests.at(-1)?.body.messages as { role: string; content: { type: string; text?: string }[] }[];
  const prompts: Unit[][] = [];
  for (let round = 0; round < requests.length; round++) {
    const body = { ...requests[round]?.body, messages };
    lastSize = tokens(JSON.stringify(body).length);
    totals.push(lastSize);
    prompts.push(promptOf({ ...body, messages: withBreakpoints(messages) }));
    if (round === requests.length - 1) break;
    // Tandem's history keeps every assistant turn at 1 + 2 * round.
    messages.push({ role: "assistant", content: [{ type: "text", text: textOf(last[1 + 2 * round]) }] });
    const read = texts.get(round);
    let result: string;
    if (read) {
      const text = versioned(sources.get(read.path) as string, read.version);
      result = `[read_file for '${read.path}'] Result:\n${text.split(/\r?\n/).map((line, i) => `${i + 1} | ${line}`).join("\n")}`;
      if (!open.includes(read.path)) open.push(read.path);
    } else if (edited.has(round)) {
      // Cline's edit result: the whole file as saved, unnumbered.
      const { path, version } = edited.get(round) as { path: string; version: number };
      const text = versioned(sources.get(path) as string, version);
      result = `[replace_in_file for '${path}'] Result:\nThe content was saved to ${path}. Here is the whole file as saved:\n<final_file_content path="${path}">\n${text}\n</final_file_content>`;
    } else {
      result = textOf(last[2 + 2 * round]);
    }
    const details = env(false);
    envTokens.push(tokens(details.length));
    messages.push({ role: "user", content: [{ type: "text", text: result }, ...(details ? [{ type: "text" as const, text: details }] : [])] });
  }
  return { totals, envTokens, prompts };
}

/** Cline's cache breakpoints, as Tandem's: the last block of each of the last two user messages (the system prompt's is kept from Tandem's body). */
function withBreakpoints(messages: readonly ApiMessage[]): unknown[] {
  const users = messages.flatMap((m, i) => (m.role === "user" ? [i] : [])).slice(-2);
  return messages.map((m, i) => {
    if (!users.includes(i) || typeof m.content === "string") return m;
    return { ...m, content: m.content.map((b, k) => (k === m.content.length - 1 ? { ...b, cache_control: { type: "ephemeral" } } : b)) };
  });
}

function versioned(source: string, version: number): string {
  return `${marker(version)}\n${source}`.replace(/\n$/, "");
}

/** A message's text blocks, the way Tandem sent them (its own environment details left out). */
function textOf(message: { content: { type: string; text?: string }[] } | undefined): string {
  return (message?.content ?? [])
    .filter((b) => b.type === "text" && !b.text?.startsWith("<environment_details>"))
    .map((b) => b.text ?? "")
    .join("\n");
}

/** Cline lists up to 200 paths, folders first with a trailing slash. */
function clineListing(files: readonly string[]): string {
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(`${parts.slice(0, i).join("/")}/`);
  }
  const entries = [...[...folders].sort(), ...files];
  const shown = entries.slice(0, 200);
  return shown.join("\n") + (entries.length > 200 ? "\n\n(File list truncated. Use list_files on specific subdirectories if you need to explore further.)" : "");
}

/** read_file's line numbers on real files: the old padded form, Cline's, and the current one. */
async function lineNumberCost(): Promise<void> {
  const files = [...FILES, "src/core/assistant-message/diff.ts", "webview-ui/src/rows/MessageRow.tsx", "README.md", "package.json"];
  console.log("read_file's line numbers, tokens (chars/4) of the whole output:");
  for (const file of files) {
    const lines = (await readFile(join(REPO, file), "utf8")).replace(/\n$/, "").split("\n");
    const width = Math.max(4, String(lines.length).length);
    const padded = lines.map((t, i) => `${String(i + 1).padStart(width)} | ${t}`).join("\n");
    const cline = lines.map((t, i) => `${i + 1} | ${t}`).join("\n");
    const now = lines.map((t, i) => `${i + 1}|${t}`).join("\n");
    const plain = lines.join("\n");
    const t = (s: string) => tokens(s.length);
    console.log(
      `  ${file.padEnd(38)} plain ${String(t(plain)).padStart(5)}  padded ${String(t(padded)).padStart(5)}  Cline's ${String(t(cline)).padStart(5)}  now ${String(t(now)).padStart(5)}` +
        `  (numbers cost: padded ${((t(padded) - t(plain)) / (t(now) - t(plain))).toFixed(2)}x, Cline's ${((t(cline) - t(plain)) / (t(now) - t(plain))).toFixed(2)}x the current form's)`,
    );
  }
}
