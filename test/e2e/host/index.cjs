/**
 * The extensionTestsPath entry for Tandem's in-host tests: VS Code loads this inside its real
 * extension host and calls run(), which runs the mocha suites in ./suite. The runner
 * (test/e2e/run-host.mjs) reads mocha's report and the exit code back through the workbench.
 */
const fs = require("node:fs");
const path = require("node:path");

/** mocha comes from the e2e tools package, not the extension's dependencies. */
function loadMocha() {
  const location = path.join(__dirname, "../.tools/node_modules/mocha");
  if (!fs.existsSync(location)) throw new Error(`mocha is missing at ${location}; run: bash test/e2e/setup.sh`);
  return require(location);
}

/**
 * Runs every *.test.cjs file in `folder` (in name order) and rejects when any test fails,
 * which makes VS Code end the run with exit code 1.
 */
function runSuites(folder) {
  const Mocha = loadMocha();
  const mocha = new Mocha({ ui: "bdd", reporter: "spec", color: false, timeout: 20_000 });
  const files = fs.readdirSync(folder).filter((f) => f.endsWith(".test.cjs")).sort();
  if (files.length === 0) return Promise.reject(new Error(`no *.test.cjs suites in ${folder}`));
  for (const file of files) mocha.addFile(path.join(folder, file));
  return new Promise((resolve, reject) => {
    let passes = 0;
    const runner = mocha.run((failures) => {
      console.log(`in-host mocha: ${passes} passed, ${failures} failed`);
      if (failures > 0) reject(new Error(`${failures} in-host test(s) failed`));
      else resolve();
    });
    runner.on("pass", () => (passes += 1));
  });
}

module.exports = { runSuites, run: () => runSuites(path.join(__dirname, "suite")) };
