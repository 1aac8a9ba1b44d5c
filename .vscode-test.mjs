/**
 * Configuration for @vscode/test-cli (`npx vscode-test`), for contributors with desktop VS Code:
 * it runs the same in-host mocha suites that test/e2e/run-host.mjs runs inside code-server here.
 * Build the extension first (`npm run build`); the repository is the extension under development.
 * (@vscode/test-cli downloads VS Code, so it cannot run on machines without Microsoft's servers.)
 */
export default {
  label: "in-host",
  files: "test/e2e/host/suite/**/*.test.cjs",
  // The VS Code that code-server 4.100.3 ships, so both runners see the same API.
  version: "1.100.3",
  workspaceFolder: "test/e2e/host/workspace",
  launchArgs: ["--disable-extensions"],
  mocha: { ui: "bdd", timeout: 20_000 },
};
