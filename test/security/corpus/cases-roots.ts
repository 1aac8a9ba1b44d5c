/**
 * Issue 30: a workspace of two folders (`--cwd work/ws --root work/web`, the second named "web").
 * Each folder is inside; `..` and links stay inside only while they land in one of them, and what
 * leaves every folder is judged as outside, as for one folder: asked without the "externally"
 * switches, a secret there refused even in YOLO. The second folder's own ignore file, secrets and
 * guard files hold as the first's do.
 */
import { casesOf, EDIT, NONE, SAFE, YOLO, cmd, list, read, search, write } from "./build-cases";
import type { SecurityCase } from "./types";

const { e2e } = casesOf("roots");

const R = { roots: true } as const;
/** A link in the second folder to a project outside every folder. */
const WEB_OUT = { "../web/out": "{root}/other-project" };
/** A link in the second folder to the neighbour's notes (outside every folder). */
const WEB_NOTES = { "../web/notes.txt": "{root}/work/neighbour/notes.txt" };
/** A link in the primary folder into the second: inside. */
const INTO_WEB = { "web-src": "{root}/work/web/src" };

export const ROOT_CASES: readonly SecurityCase[] = [
  // Both folders are the workspace.
  e2e("roots-read-second", "allowed", NONE, read("web/src/page.ts"), { ...R, mustSee: "TODO" }),
  e2e("roots-read-second-absolute", "allowed", NONE, read("{root}/work/web/src/page.ts"), { ...R, mustSee: "TODO" }),
  e2e("roots-read-link-into-second", "allowed", NONE, read("web-src/page.ts"), { ...R, links: INTO_WEB, mustSee: "TODO" }),
  e2e("roots-list-second", "allowed", NONE, list("web", true), { ...R, links: WEB_OUT, mustSee: "web/src/page.ts" }),
  e2e("roots-search-second-not-through-link", "allowed", NONE, search("web"), { ...R, links: WEB_OUT, mustSee: "TODO" }),
  e2e("roots-cmd-cat-second-safe", "allowed", SAFE, cmd("cat ../web/src/page.ts"), { ...R, mustSee: "TODO" }),
  // `..` out of every folder.
  e2e("roots-dotdot-out", "asked", NONE, read("web/../neighbour/notes.txt"), R),
  e2e("roots-dotdot-out-twice", "asked", NONE, read("web/../../other-project/x"), R),
  e2e("roots-dotdot-out-env-yolo", "refused", YOLO, read("web/../../other-project/.env"), R),
  e2e("roots-dotdot-out-write", "asked", EDIT, write("web/../neighbour/new.txt"), R),
  e2e("roots-dotdot-out-env-write-yolo", "refused", YOLO, write("web/../../other-project/.env"), R),
  // Links out of every folder.
  e2e("roots-link-out", "asked", NONE, read("web/out/x"), { ...R, links: WEB_OUT }),
  e2e("roots-link-out-file", "asked", NONE, read("web/notes.txt"), { ...R, links: WEB_NOTES }),
  e2e("roots-link-out-env-yolo", "refused", YOLO, read("web/out/.env"), { ...R, links: WEB_OUT }),
  e2e("roots-link-out-write", "asked", EDIT, write("web/out/x"), { ...R, links: WEB_OUT }),
  e2e("roots-link-out-env-write-yolo", "refused", YOLO, write("web/out/.env"), { ...R, links: WEB_OUT }),
  e2e("roots-link-out-list", "asked", NONE, list("web/out"), { ...R, links: WEB_OUT }),
  e2e("roots-cmd-cat-link-out-safe", "asked", SAFE, cmd("cat ../web/out/x"), { ...R, links: WEB_OUT }),
  // The second folder's own guard.
  e2e("roots-second-ignored-yolo", "refused", YOLO, read("web/vault/keys.txt"), R),
  e2e("roots-second-env-yolo", "refused", YOLO, read("web/.env"), R),
  e2e("roots-second-guard-file-yolo", "asked", YOLO, write("web/.vscode/settings.json", "{ \"x\": 1 }\n"), R),
  e2e("roots-second-ignore-file-yolo", "asked", YOLO, write("web/.tandemignore", "# nothing ignored\n"), R),
  e2e("roots-rm-second-yolo", "refused", YOLO, cmd("rm -rf ../web"), R),
];
