import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "webview-ui/src/**/*.test.{ts,tsx}"],
    exclude: ["node_modules", "dist", "test/e2e/**"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
