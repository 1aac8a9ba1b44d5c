/**
 * A deliberately failing in-host run, for `run-host.mjs --self-check`: it proves a failing
 * mocha test inside the extension host comes back as exit code 1, not as a pass.
 */
const path = require("node:path");
const { runSuites } = require("../index.cjs");

module.exports = { run: () => runSuites(path.join(__dirname)) };
