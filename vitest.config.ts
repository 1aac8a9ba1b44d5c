import { defineConfig } from "vitest/config";

const shared = {
  exclude: ["node_modules", "dist", "test/e2e/**"],
  testTimeout: 20_000,
  hookTimeout: 20_000,
};

// Two projects: the webview's React tests run in jsdom, everything else on plain Node.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: "node",
          environment: "node",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
        },
      },
      {
        // Resolve packages as the webview's bundler does (browser builds, not Node's).
        resolve: { conditions: ["browser", "development", "module", "import", "default"] },
        test: {
          ...shared,
          name: "webview",
          environment: "jsdom",
          include: ["webview-ui/src/**/*.test.{ts,tsx}"],
          setupFiles: ["webview-ui/vitest.setup.ts"],
          // @lit/react's "node" build never sets element properties (it expects server rendering);
          // inlining it through Vite picks its browser build, as the real webview bundle does.
          server: { deps: { inline: [/@vscode-elements\/react-elements/, /@lit\/react/] } },
        },
      },
    ],
  },
});
