import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongFirstSequencer } from "./test/support/long-first-sequencer";

/**
 * Tests that start processes, open sockets or drive the shipped bundles: the CLI, the sandbox,
 * real git, MCP servers, the scripted model server on 127.0.0.1. Every other test is a unit test
 * and runs under test/support/unit-guard.ts, which refuses processes and sockets (and no-sleep.ts,
 * which fails a test that waits in real time).
 */
const INTEGRATION = [
  "test/{bundle,checkpoints,cli,core,hooks,mcp,sandbox,sandbox-core,security,storage,support,tools}/**/*.test.ts",
  // The provider clients against the scripted model server.
  "test/api/{anthropic,openai,openai-responses,provider-wire,vertex,gemini,bedrock,model-lists}.test.ts",
  // The host adapter with a real model server, GNU patch and a shell.
  "test/host/{edit-preview,line-diff,terminal-command}.test.ts",
  // Beside their modules, but real processes: the shell, ripgrep, mkfifo, a killed writer.
  "src/host/node/node-terminal.test.ts",
  "src/core/task/tools/{execute-command,attempt-completion,search-files}.test.ts",
  "src/core/context/rules.test.ts",
  "src/core/storage/leftover-temp-files.test.ts",
  // The real file watcher, which reacts in its own time.
  "src/core/ignore/ignore-controller.test.ts",
  // A real HTTP server on 127.0.0.1.
  "src/core/task/tools/web-fetch.test.ts",
];

const shared = {
  exclude: ["node_modules", "dist", "test/e2e/**"],
  testTimeout: 20_000,
  hookTimeout: 20_000,
};

// Three projects: unit and webview are fast (`npm run test:unit`); integration builds the
// production bundles once (test/support/bundles.global-setup.ts) for every test that drives them.
export default defineConfig({
  test: {
    // One more file than cores: an integration test spends much of its time waiting on the
    // processes it started (vitest's default, cores - 1, is one file at a time on 2 cores).
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      {
        test: {
          ...shared,
          name: "unit",
          environment: "node",
          // Files share a worker's modules (and, for the webview, its jsdom) instead of loading
          // them again each: 55 s to 21 s for both projects. No test mocks modules, and shuffled
          // orders pass; the guards are setup files, which run for every file still.
          isolate: false,
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...shared.exclude, ...INTEGRATION],
          setupFiles: ["test/support/unit-guard.ts", "test/support/no-sleep.ts"],
        },
      },
      {
        // Resolve packages as the webview's bundler does (browser builds, not Node's).
        resolve: { conditions: ["browser", "development", "module", "import", "default"] },
        test: {
          ...shared,
          name: "webview",
          environment: "jsdom",
          isolate: false,
          include: ["webview-ui/src/**/*.test.{ts,tsx}"],
          setupFiles: ["webview-ui/vitest.setup.ts", "test/support/unit-guard.ts"],
          // @lit/react's "node" build never sets element properties (it expects server rendering);
          // inlining it through Vite picks its browser build, as the real webview bundle does.
          server: { deps: { inline: [/@vscode-elements\/react-elements/, /@lit\/react/] } },
        },
      },
      {
        test: {
          ...shared,
          name: "integration",
          environment: "node",
          // A hang's limit, not a speed check: beside the e2e suite on two cores, a test of many
          // processes (git, the CLI) once took over 20 s where it takes 1 s alone.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Beside the e2e suite, the two cores are loaded for minutes: a failed test runs once more,
          // and vitest marks it (retry x1) in the report. A test that fails both times fails the run.
          retry: 1,
          include: INTEGRATION,
          globalSetup: ["test/support/bundles.global-setup.ts"],
        },
      },
    ],
  },
});
