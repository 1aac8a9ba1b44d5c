/**
 * The modules whose decisions protect a person's files, secrets and money, each mutated against
 * only its own unit tests (issue 32). `mutate` are the module's source files; `tests` the unit
 * test files that state its behaviour.
 */
export const MODULES = [
  {
    name: "parser",
    title: "Incremental parser",
    mutate: ["src/core/assistant-message/incremental-parser.ts"],
    tests: ["src/core/assistant-message/incremental-parser.test.ts"],
  },
  {
    name: "search-replace",
    title: "SEARCH/REPLACE engine",
    mutate: ["src/core/assistant-message/diff.ts", "src/core/assistant-message/diff-*.ts", "!src/core/assistant-message/*.test.ts"],
    tests: [
      "src/core/assistant-message/diff.test.ts",
      "src/core/assistant-message/diff-parse.test.ts",
      "src/core/assistant-message/diff-numbers.test.ts",
      "src/core/assistant-message/diff-indent.test.ts",
      "src/core/assistant-message/diff-lines.test.ts",
      "src/core/assistant-message/diff-closest.test.ts",
      "src/core/assistant-message/diff-report.test.ts",
    ],
  },
  {
    name: "command-policy",
    title: "Command policy",
    mutate: ["src/core/permissions/*.ts", "!src/core/permissions/*.test.ts", "!src/core/permissions/*.cases.ts", "!src/core/permissions/*.d.ts", "!src/core/permissions/index.ts"],
    tests: ["src/core/permissions/*.test.ts"],
  },
  {
    name: "journal",
    title: "History journal",
    mutate: ["src/core/storage/journal.ts", "src/core/storage/journal-format.ts"],
    tests: ["src/core/storage/journal.test.ts", "src/core/storage/journal-format.test.ts", "src/core/storage/journal-compaction.test.ts"],
  },
  {
    name: "ignore",
    title: "Ignore controller (path decision)",
    mutate: ["src/core/ignore/ignore-rules.ts", "src/core/ignore/ignore-controller.ts"],
    tests: ["src/core/ignore/ignore-rules.test.ts"],
  },
  {
    name: "context",
    title: "Context window and truncation",
    mutate: ["src/core/context/context-window.ts", "src/core/context/truncate-conversation.ts"],
    tests: ["src/core/context/condense.test.ts", "src/core/context/context-window.test.ts", "src/core/context/truncate-conversation.test.ts", "src/shared/usage.test.ts"],
  },
  {
    name: "cost",
    title: "Cost calculation",
    mutate: ["src/api/cost.ts"],
    tests: ["test/api/model-info.test.ts"],
  },
];
