/**
 * The vitest config Stryker runs a module's unit tests with (stryker/run.mjs): the unit project's
 * environment and guards (no process, no socket, no real sleep), one project, no sequencer.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    // The module's own test files, from stryker/run.mjs. Not Stryker's `testFiles` option: with it,
    // Stryker 9.6.1 activates static mutants (module-level values) too late and reports them as
    // survived whatever the tests say (stryker-js issue 6144).
    include: process.env.TANDEM_MUTATION_TESTS?.split(",") ?? ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["node_modules", "dist", "test/e2e/**"],
    setupFiles: ["test/support/unit-guard.ts", "test/support/no-sleep.ts"],
    // Tests that bound a duration allow for instrumented code (diff.test.ts).
    env: { TANDEM_MUTATION_RUN: "1" },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
