import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["dist/**", "webview-ui/dist/**", "node_modules/**", "test/e2e/.tools/**", "test/e2e/.output/**", "test/e2e/.playground/**", ".test-output/**", "*.vsix"] },
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
        { paths: [{ name: "vscode", message: "Only src/extension.ts and src/host/vscode/ may import vscode." }] },
      ],
    },
  },
  {
    files: ["src/extension.ts", "src/host/vscode/**"],
    rules: { "no-restricted-imports": "off" },
  },
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
