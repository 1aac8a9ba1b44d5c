import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

const NO_VSCODE = { name: "vscode", message: "Only src/extension.ts and src/host/vscode/ may import vscode." };

/** One no-restricted-imports block per folder; a later block replaces the rule, so each keeps the vscode ban. */
function importRules(rules) {
  return rules.map(([files, pattern]) => ({
    files: [files],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-imports": ["error", { paths: [NO_VSCODE], patterns: [pattern] }] },
  }));
}

export default tseslint.config(
  { ignores: ["dist/**", "webview-ui/dist/**", "node_modules/**", "test/e2e/.tools/**", "test/e2e/.output/**", "test/e2e/.playground/**", ".test-output/**", "*.vsix", ".stryker-tmp/**", "reports/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "max-params": ["error", 5],
      "max-depth": ["error", 4],
      complexity: ["warn", 25],
      "no-restricted-imports": [
        "error",
        { paths: [NO_VSCODE] },
      ],
    },
  },
  {
    files: ["src/extension.ts", "src/host/vscode/**"],
    rules: { "no-restricted-imports": "off" },
  },
  // What each folder may import, as its README says. Tests beside the code are not shipped, so exempt.
  ...importRules([
    ["src/shared/**", { regex: "^(?!\\./)", message: "src/shared imports only its own files: the webview loads them (src/shared/README.md)." }],
    ["src/host/bridge.ts", { regex: "^(?!\\.\\./shared/)", message: "host/bridge.ts may import nothing but src/shared (src/host/README.md)." }],
    ["src/api/**", { group: ["**/core/**", "**/host/**", "**/cli/**"], message: "src/api imports only the SDKs, Node and src/shared (src/api/README.md)." }],
    ["src/core/**", { group: ["**/host/vscode/**", "**/host/node/**", "**/cli/**", "**/test/**"], message: "The core gets hosts handed in and never imports host/node, host/vscode, the CLI or tests (src/core/README.md)." }],
    ["src/core/permissions/**", { regex: "^\\.\\./(?!util/)", message: "core/permissions imports nothing of Tandem but core/util (its README)." }],
    ["src/core/ignore/**", { group: ["**/task/**", "**/sandbox/**"], message: "core/ignore is the guard the tasks and the sandbox use: it imports neither (its README)." }],
    ["src/core/assistant-message/**", { regex: "^\\.\\./", message: "core/assistant-message imports nothing outside its folder (its README)." }],
  ]),
  {
    files: ["**/*.mjs", "**/*.js"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Mocha suites that run inside the real VS Code extension host (test/e2e/host).
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
