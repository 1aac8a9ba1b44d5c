/**
 * History with 5,000 saved tasks (bench/history-tasks.ts makes them), each against a baseline
 * measured in the same run:
 * - opening History: the host's first state (the index read, the list posted once) plus the view
 *   rendered in jsdom (bench/history-dom.ts: the page's JavaScript, no layout), against the same
 *   with 50 tasks and against the list as it was before (every entry in the page). Target: under
 *   200 ms for 5,000 tasks.
 * - the index: read and parsed by TaskHistory against a bare JSON.parse of the file; rebuilt from
 *   the 5,000 folders when it is lost.
 * - searching: the first query (every digest loaded), then each keystroke of a query typed letter
 *   by letter, and the bytes each answer posts, against one naive search that reads every chat.
 * `TASKS=1000 npm run bench history` for a smaller run.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySecretStore, MemorySettingsStore } from "../src/core/controller/stores";
import { WebviewSession } from "../src/core/controller/webview-session";
import { MAX_POSTED_MATCHES } from "../src/core/controller/history-panel";
import { HistorySearch } from "../src/core/history/history-search";
import { taskDigest } from "../src/core/history/task-digest";
import { foldCase, matchDigest, matchText, parseQuery } from "../src/core/history/text-match";
import { TaskDigests } from "../src/core/history/task-digests";
import { taskHistoryFile } from "../src/core/storage/paths";
import { TaskHistory } from "../src/core/storage/task-history";
import { TaskStorage } from "../src/core/storage/task-storage";
import { NodeHost } from "../src/host/node/node-host";
import type { ToWebviewMessage, WebviewState } from "../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS } from "../src/shared/settings";
import { openHistory } from "./history-dom";
import { generateTasks } from "./history-tasks";

const TASKS = Number(process.env.TASKS ?? 5_000);
const TARGET_OPEN_MS = 200;
const RUNS = 5;
const QUERY = "fetcher retr";

const fail = (error: unknown) => {
  throw error;
};

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "tandem-bench-history-"));
  try {
    const workspace = join(dir, "workspace");
    const big = join(dir, "big");
    const small = join(dir, "small");
    const made = performance.now();
    await generateTasks(big, TASKS, workspace);
    await generateTasks(small, 50, workspace);
    console.log(`${TASKS} saved tasks made in ${((performance.now() - made) / 1000).toFixed(1)} s (and 50 for the baseline)`);

    const index = await measureIndex(big);
    const open = await measureOpen(big, small, workspace);
    await measureSearch(big);

    const total = open.hostMs + open.viewMs;
    console.log(`opening History with ${TASKS} tasks: ${ms(total)} (host ${ms(open.hostMs)} + view ${ms(open.viewMs)}); the index alone ${ms(index)}`);
    console.log(`${total < TARGET_OPEN_MS ? "PASS" : "MISS"} target: ${TASKS} tasks open the History view in under ${TARGET_OPEN_MS} ms (${ms(total)})`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The index read by TaskHistory, against the bare parse; then rebuilt from the folders. */
async function measureIndex(root: string): Promise<number> {
  const read = await median(async () => (await new TaskHistory(root, fail).list()).length);
  const bare = await median(async () => (JSON.parse(await readFile(taskHistoryFile(root), "utf8")) as unknown[]).length);
  console.log(`the index of ${TASKS} tasks: read by TaskHistory ${ms(read)}, a bare JSON.parse ${ms(bare)} = ${(read / bare).toFixed(2)}x`);
  await rm(taskHistoryFile(root));
  const started = performance.now();
  const rebuilt = await new TaskHistory(root, fail, { readOnly: true }).list();
  const rebuildMs = performance.now() - started;
  // The owner writes the rebuilt index back.
  const owner = new TaskHistory(root, fail);
  await owner.list();
  await owner.flush();
  console.log(`the index lost: rebuilt from ${rebuilt.length} task folders in ${ms(rebuildMs)} (${(rebuildMs / read).toFixed(0)}x reading it)`);
  return read;
}

/** The host's first state and the view's first rows, with TASKS and with 50 tasks, and the list as it was. */
async function measureOpen(big: string, small: string, workspace: string): Promise<{ hostMs: number; viewMs: number }> {
  const host = async (root: string) => {
    let state: WebviewState | undefined;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const session = newSession(root, workspace, (message) => {
        if (message.type === "state") state = message.state;
      });
      const started = performance.now();
      await session.handle({ type: "ready" });
      times.push(performance.now() - started);
      await session.dispose();
    }
    return { ms: sorted(times)[Math.floor(RUNS / 2)]!, state: state! };
  };
  const bigHost = await host(big);
  const smallHost = await host(small);
  const bytes = JSON.stringify(bigHost.state.history).length;
  console.log(`the host's first state: ${ms(bigHost.ms)} with ${TASKS} tasks (the list ${kb(bytes)}, posted once), ${ms(smallHost.ms)} with 50`);

  const view = async (state: WebviewState, virtualized: boolean, runs = RUNS) => {
    const times: { ms: number; rows: number }[] = [];
    for (let i = 0; i < runs; i++) times.push(await openHistory(state, { virtualized }));
    return { ms: sorted(times.map((r) => r.ms))[Math.floor(runs / 2)]!, rows: times[0]!.rows };
  };
  await view(smallHost.state, true, 1); // warm: the first render compiles the components
  const bigView = await view(bigHost.state, true);
  const smallView = await view(smallHost.state, true);
  // Once: it takes seconds.
  const before = await view(bigHost.state, false, 1);
  console.log(`the view (jsdom, no layout): ${ms(bigView.ms)} with ${TASKS} tasks (${bigView.rows} rows in the page), ${ms(smallView.ms)} with 50 = ${(bigView.ms / smallView.ms).toFixed(2)}x`);
  console.log(`  the list as it was (every entry in the page): ${ms(before.ms)} for ${before.rows} rows = ${(before.ms / bigView.ms).toFixed(1)}x the virtualized list`);
  return { hostMs: bigHost.ms, viewMs: bigView.ms };
}

/** The first search, each keystroke after it, and one naive search reading every chat. */
async function measureSearch(root: string): Promise<void> {
  const history = new TaskHistory(root, fail);
  const search = new HistorySearch(history, new TaskDigests(root, fail));
  await history.list();
  let started = performance.now();
  const first = (await search.search(QUERY[0]!)).matches;
  const firstMs = performance.now() - started;
  const keystrokes: { ms: number; bytes: number; matches: number }[] = [];
  for (let length = 2; length <= QUERY.length; length++) {
    started = performance.now();
    // As the panel asks: the best few hundred made whole, and how many there are.
    const { matches, total } = await search.search(QUERY.slice(0, length), { limit: MAX_POSTED_MATCHES });
    const ms = performance.now() - started;
    const posted = { type: "historyResults", requestId: length, query: QUERY.slice(0, length), matches, total };
    keystrokes.push({ ms, bytes: JSON.stringify(posted).length, matches: total });
  }
  const items = await history.list();
  const query = parseQuery(QUERY)!;
  started = performance.now();
  let naive = 0;
  for (const item of items) {
    // The same matching, on a digest made from the chat each time.
    const chat = await new TaskStorage(root, item.id).loadChatMessages();
    if (matchText(foldCase(item.text), query) || matchDigest(foldCase(taskDigest(chat)), query)) naive++;
  }
  const naiveMs = performance.now() - started;
  const each = keystrokes.map((k) => k.ms);
  const worst = Math.max(...each);
  const middle = sorted(each)[Math.floor(each.length / 2)]!;
  console.log(`searching ${TASKS} tasks' text and conversation: the first query ("${QUERY[0]}", ${first.length} matches) ${ms(firstMs)}, loading every digest`);
  console.log(`  then "${QUERY}" typed letter by letter: ${each.map((t) => t.toFixed(1)).join(", ")} ms per keystroke (median ${ms(middle)}, worst ${ms(worst)}); matches ${keystrokes.map((k) => k.matches).join(" → ")}`);
  console.log(`  posted per keystroke: ${keystrokes.map((k) => kb(k.bytes)).join(", ")} (at most ${MAX_POSTED_MATCHES} matches; the list itself is never re-sent)`);
  console.log(`  baseline, one search reading every chat: ${ms(naiveMs)} (${naive} matches) = ${(naiveMs / middle).toFixed(0)}x the median keystroke, ${(naiveMs / worst).toFixed(0)}x the worst`);
}

function newSession(root: string, workspace: string, post: (message: ToWebviewMessage) => void): WebviewSession {
  return new WebviewSession({
    post,
    host: new NodeHost(workspace),
    settings: new MemorySettingsStore(DEFAULT_AGENT_SETTINGS, { provider: "anthropic", modelId: "claude-sonnet-4-6" }),
    secrets: new MemorySecretStore(),
    storageRoot: root,
    openFile: async () => {},
  });
}

async function median(measure: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await measure();
    times.push(performance.now() - started);
  }
  return sorted(times)[Math.floor(RUNS / 2)]!;
}

function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
