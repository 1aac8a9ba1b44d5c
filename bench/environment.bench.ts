/**
 * What the environment details add to each request, in tokens (estimated as characters / 4, as
 * the system prompt's figure is): the real EnvironmentInLoop, the real ignore guard and listing
 * walk, on this repository, with a host that reports a typical editor (3 open tabs, 1 visible)
 * and one terminal. Prints figures, asserts nothing: `npm run bench environment`.
 */
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { IgnoreController } from "../src/core/ignore/ignore-controller";
import { EnvironmentInLoop } from "../src/core/participants/environment/environment";
import type { HostBridge, TerminalActivity } from "../src/host/bridge";
import type { ChatMessage } from "../src/shared/messages";
import { nameRoots, WorkspaceRoots } from "../src/core/util/workspace-roots";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tokens = (text: string) => Math.round(text.length / 4);

export async function run(): Promise<void> {
  const guard = await IgnoreController.create(ROOT);
  try {
    const tabs = ["src/core/task/index.ts", "src/core/context/environment-details.ts", "README.md"].map((f) => path.join(ROOT, f));
    let terminal: TerminalActivity = { name: "bash", busy: false, lastCommand: "npx vitest run test/core/rules.test.ts", recentOutput: TEST_RUN, outputLength: TEST_RUN.length };
    const chat: ChatMessage[] = [
      { ts: 1, type: "say", say: "api_req_started", apiRequest: { tokensIn: 2_100, tokensOut: 350, cacheReads: 9_800, cacheWrites: 1_200, cost: 0 } },
    ];
    const host: HostBridge = {
      workspace: { roots: nameRoots([{ path: ROOT }]) },
      window: { notify: () => {} },
      terminal: { run: () => { throw new Error("not in the bench"); }, activity: () => [terminal] },
      editor: { visibleFiles: () => [tabs[0]!], openTabs: () => tabs, problems: () => [] },
    };
    const loop = new EnvironmentInLoop({
      host,
      roots: WorkspaceRoots.of(host.workspace.roots),
      guard,
      signal: new AbortController().signal,
      takeBackgroundNews: () => undefined,
      chat: () => chat,
      contextWindow: () => 200_000,
      warn: (text) => console.log(`  warning: ${text}`),
    });
    const first = (await loop.details([{ type: "text", text: "<task>\nFix the bug\n</task>" }])) as { text: string };
    const listingStart = first.text.indexOf("# Workspace files");
    console.log("environment details, tokens per request (characters / 4):");
    const listing = first.text.slice(listingStart);
    // Grouped by folder: a line is a folder, then its names.
    const lines = listing.split("\n").filter((line) => / /.test(line) && !/^[#[<]/.test(line));
    const entries = lines.reduce((sum, line) => sum + line.slice(line.indexOf(": ") + 2).split(" ").length, 0);
    console.log(`  first request: ${tokens(first.text)} (the listing of this repository: ${tokens(listing)}, ${entries} entries in ${lines.length} folders${listing.includes("[Only the first") ? ", cut there" : ""})`);
    // The person's terminal printed a new test run since the last round.
    terminal = { ...terminal, recentOutput: TEST_RUN + TEST_RUN, outputLength: 2 * TEST_RUN.length };
    const busy = (await loop.details([{ type: "text", text: "tool result" }])) as { text: string };
    console.log(`  a round with 3 open tabs and a terminal's new test run (${TEST_RUN.split("\n").length} lines): ${tokens(busy.text)}`);
    const quiet = (await loop.details([{ type: "text", text: "tool result" }])) as { text: string };
    console.log(`  a round where only the time and usage changed: ${tokens(quiet.text)}`);
    console.log(`  a 20-request task (the first, one with a test run, 18 quiet): ${tokens(first.text) + tokens(busy.text) + 18 * tokens(quiet.text)} in all`);
    console.log(busy.text.replace(/^/gm, "    | "));
  } finally {
    guard.dispose();
  }
}

const TEST_RUN = ` RUN  v4.1.12 /work/project

 ✓ test/core/rules.test.ts (9 tests) 1840ms
 ✓ test/core/task-loop.test.ts (40 tests) 5230ms

 Test Files  2 passed (2)
      Tests  49 passed (49)
   Duration  7.41s
`;
