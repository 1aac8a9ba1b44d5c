/**
 * The vitest config Stryker runs a module's unit tests with (stryker/run.mjs): the unit project's
 * environment and guards (no process, no socket, no real sleep), one project, no sequencer.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["node_modules", "dist", "test/e2e/**"],
    setupFiles: ["test/support/unit-guard.ts", "test/support/no-sleep.ts"],
    // Tests that bound a duration allow for instrumented code (diff.test.ts).
    env: { TANDEM_MUTATION_RUN: "1" },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
