/**
 * Controls: ordinary work the guard must still let through, on the same sandbox and settings as
 * the attacks. A guard that refused everything would pass every other case and fail these.
 * Includes the benign commands that `benign-commands.ts` marks to run for real.
 */
import { BENIGN_COMMANDS } from "../benign-commands";
import { casesOf, EDIT, NONE, READ_OUTSIDE, SAFE, YOLO, cmd, defs, list, read, replace, search, write } from "./build-cases";
import type { SecurityCase } from "./types";

const { e2e } = casesOf("controls");

const slug = (command: string) => command.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "").toLowerCase();

export const CONTROL_CASES: readonly SecurityCase[] = [
  e2e("ctl-read-workspace-file", "allowed", NONE, read("src/index.ts"), { mustSee: "export function main" }),
  e2e("ctl-read-link-inside", "allowed", NONE, read("main.ts"), { links: { "main.ts": "src/index.ts" }, mustSee: "export function main" }),
  e2e("ctl-read-outside-with-read-outside", "allowed", READ_OUTSIDE, read("/etc/hostname")),
  e2e("ctl-search-src", "allowed", NONE, search("src", "TODO"), { mustSee: "TODO" }),
  e2e("ctl-search-root-js", "allowed", NONE, search(".", "TODO"), { noRipgrep: true, mustSee: "TODO" }),
  e2e("ctl-list-root-recursive", "allowed", NONE, list(".", true), { mustSee: "src/index.ts" }),
  e2e("ctl-defs-src", "allowed", NONE, defs("src"), { mustSee: "main" }),
  e2e("ctl-write-new-file", "allowed", EDIT, write("src/new.ts", "export const x = 1;\n")),
  e2e("ctl-write-through-link-inside", "allowed", EDIT, write("cur.ts", "export {};\n"), { links: { "cur.ts": "src/util.ts" } }),
  e2e("ctl-replace-in-file", "allowed", EDIT, replace("src/util.ts", "  return a + b;", "  return b + a;")),
  e2e("ctl-write-gitignore-yolo", "allowed", YOLO, write(".gitignore", "node_modules/\n")),
  e2e("ctl-yolo-rm-rf-build", "allowed", YOLO, cmd("rm -rf build")),
  e2e("ctl-yolo-node-version", "allowed", YOLO, cmd("node --version")),
  e2e("ctl-safe-cat-absolute-inside", "allowed", SAFE, cmd("cat {ws}/README.md")),
  ...BENIGN_COMMANDS.filter((b) => b.runInCli).map((b) => e2e(`benign-${slug(b.command)}`, "allowed", SAFE, cmd(b.command))),
];
