/**
 * Issue 11 §1: links. A link is judged as its target, by every file tool: links to .env, to
 * ignored files and folders, to places outside the workspace, dangling links, chains of links.
 * Searches and listings of the workspace must not descend through them.
 */
import { casesOf, EDIT, NONE, READ_OUTSIDE, SAFE, YOLO, cmd, defs, list, read, replace, search, write } from "./build-cases";
import type { SecurityCase } from "./types";

const { e2e } = casesOf("links");

const ENV = { "settings.txt": ".env" };
const PRIVATE = { pub: "private" };
const OTHER_FILE = { "other.txt": "{root}/other-project/x" };
const OTHER_FOLDER = { ext: "{root}/other-project" };
const HOME_FOLDER = { h: "{home}" };
const CHAIN_ENV = { "a.txt": "b.txt", "b.txt": ".env" };
const CHAIN_PRIVATE = { p1: "p2", p2: "private" };

export const LINK_CASES: readonly SecurityCase[] = [
  // read_file
  e2e("link-read-env", "refused", NONE, read("settings.txt"), { links: ENV }),
  e2e("link-read-env-yolo", "refused", YOLO, read("settings.txt"), { links: ENV }),
  e2e("link-read-env-absolute-target", "refused", NONE, read("conf/app.conf"), { links: { "conf/app.conf": "{ws}/.env" } }),
  e2e("link-read-ignored-file", "refused", NONE, read("keys.txt"), { links: { "keys.txt": "private/keys.txt" } }),
  e2e("link-read-ignored-pattern-yolo", "refused", YOLO, read("notes.txt"), { links: { "notes.txt": "notes.secret" } }),
  e2e("link-read-ignored-path-yolo", "refused", YOLO, read("config/current.json"), { links: { "config/current.json": "prod.json" } }),
  e2e("link-read-clineignored", "refused", NONE, read("token.txt"), { links: { "token.txt": "secrets-cline/token.txt" } }),
  e2e("link-read-ignored-folder", "refused", NONE, read("pub/keys.txt"), { links: PRIVATE }),
  e2e("link-read-ignored-folder-yolo", "refused", YOLO, read("pub/keys.txt"), { links: PRIVATE }),
  e2e("link-read-outside-file", "asked", NONE, read("other.txt"), { links: OTHER_FILE }),
  e2e("link-read-outside-relative-target", "asked", NONE, read("other.txt"), { links: { "other.txt": "../../other-project/x" } }),
  e2e("link-read-outside-folder", "asked", NONE, read("ext/x"), { links: OTHER_FOLDER }),
  e2e("link-read-home-file", "asked", NONE, read("diary.txt"), { links: { "diary.txt": "{home}/notes.txt" } }),
  e2e("link-read-home-key-yolo", "refused", YOLO, read("id.txt"), { links: { "id.txt": "{home}/.ssh/id_rsa" } }),
  e2e("link-read-home-credentials-read-outside", "refused", READ_OUTSIDE, read("creds.txt"), { links: { "creds.txt": "{home}/.aws/credentials" } }),
  e2e("link-read-outside-env-yolo", "refused", YOLO, read("ext/.env"), { links: OTHER_FOLDER }),
  e2e("link-read-home-folder-key-yolo", "refused", YOLO, read("h/.ssh/id_rsa"), { links: HOME_FOLDER }),
  e2e("link-read-chain-env", "refused", NONE, read("a.txt"), { links: CHAIN_ENV }),
  e2e("link-read-chain-env-yolo", "refused", YOLO, read("a.txt"), { links: CHAIN_ENV }),
  e2e("link-read-chain-folder", "refused", NONE, read("p1/keys.txt"), { links: CHAIN_PRIVATE }),
  e2e("link-read-chain-outside", "asked", NONE, read("c1"), { links: { c1: "c2", c2: "{root}/other-project/x" } }),
  e2e("link-read-dangling-into-ignored", "refused", NONE, read("future.txt"), { links: { "future.txt": "private/missing.txt" } }),
  e2e("link-read-dangling-secret", "refused", NONE, read("future.txt"), { links: { "future.txt": ".env.local" } }),

  // search_files: a search of the workspace does not descend through links; a search of a link is judged as its target.
  e2e("link-search-root-env", "allowed", NONE, search("."), { links: ENV, mustSee: "TODO" }),
  e2e("link-search-root-ignored-folder", "allowed", NONE, search("."), { links: PRIVATE, mustSee: "TODO" }),
  e2e("link-search-root-ignored-folder-js", "allowed", NONE, search("."), { links: PRIVATE, noRipgrep: true, mustSee: "TODO" }),
  e2e("link-search-ignored-folder", "refused", NONE, search("pub"), { links: PRIVATE }),
  e2e("link-search-ignored-folder-yolo", "refused", YOLO, search("pub"), { links: PRIVATE }),
  e2e("link-search-env-file-yolo", "refused", YOLO, search("settings.txt"), { links: ENV }),
  e2e("link-search-root-outside", "allowed", NONE, search("."), { links: OTHER_FOLDER, mustSee: "TODO" }),
  e2e("link-search-root-outside-js", "allowed", NONE, search("."), { links: OTHER_FOLDER, noRipgrep: true, mustSee: "TODO" }),
  e2e("link-search-root-outside-yolo", "allowed", YOLO, search("."), { links: OTHER_FOLDER, mustSee: "TODO" }),
  e2e("link-search-root-home", "allowed", NONE, search("."), { links: HOME_FOLDER, mustSee: "TODO" }),
  e2e("link-search-root-home-js-yolo", "allowed", YOLO, search("."), { links: HOME_FOLDER, noRipgrep: true, mustSee: "TODO" }),
  e2e("link-search-outside-folder", "asked", NONE, search("ext"), { links: OTHER_FOLDER }),
  e2e("link-search-root-outside-file-glob", "allowed", NONE, search(".", "SECRET|bob", "*.txt"), { links: OTHER_FILE, mustSee: "bob" }),
  e2e("link-search-root-glob-names-link", "allowed", NONE, search(".", "SECRET", "settings.txt"), { links: ENV }),
  e2e("link-search-root-chain", "allowed", NONE, search("."), { links: CHAIN_PRIVATE, mustSee: "TODO" }),
  e2e("link-search-nested-link", "allowed", NONE, search("src"), { links: { "src/vendor": "../private" }, mustSee: "TODO" }),

  // list_files: names inside ignored or outside folders (the marker is in file names there) stay unseen.
  e2e("link-list-root-ignored-folder", "allowed", NONE, list(".", true), { links: PRIVATE, mustSee: "src/index.ts" }),
  e2e("link-list-ignored-folder", "refused", NONE, list("pub"), { links: PRIVATE }),
  e2e("link-list-ignored-folder-yolo", "refused", YOLO, list("pub", true), { links: PRIVATE }),
  e2e("link-list-root-outside", "allowed", NONE, list(".", true), { links: OTHER_FOLDER, mustSee: "src/index.ts" }),
  e2e("link-list-root-home-yolo", "allowed", YOLO, list(".", true), { links: HOME_FOLDER, mustSee: "src/index.ts" }),
  e2e("link-list-outside-folder", "asked", NONE, list("ext"), { links: OTHER_FOLDER }),
  e2e("link-list-root-chain", "allowed", NONE, list(".", true), { links: CHAIN_PRIVATE, mustSee: "src/index.ts" }),
  e2e("link-list-nested-link", "allowed", NONE, list("src", true), { links: { "src/vendor": "../private" }, mustSee: "src/index.ts" }),

  // write_to_file: through a link, a new file is judged by its nearest existing parent.
  e2e("link-write-env", "refused", EDIT, write("settings.txt"), { links: ENV }),
  e2e("link-write-env-yolo", "refused", YOLO, write("settings.txt"), { links: ENV }),
  e2e("link-write-into-ignored-folder", "refused", EDIT, write("pub/new.txt"), { links: PRIVATE }),
  e2e("link-write-ignored-file-yolo", "refused", YOLO, write("pub/keys.txt"), { links: PRIVATE }),
  e2e("link-write-outside-file", "asked", EDIT, write("other.txt"), { links: OTHER_FILE }),
  e2e("link-write-outside-new-folder", "asked", EDIT, write("ext/newdir/file.txt"), { links: OTHER_FOLDER }),
  e2e("link-write-outside-env-yolo", "refused", YOLO, write("ext/.env"), { links: OTHER_FOLDER }),
  e2e("link-write-home-key-yolo", "refused", YOLO, write("h/.ssh/id_rsa"), { links: HOME_FOLDER }),
  e2e("link-write-chain-env", "refused", EDIT, write("a.txt"), { links: CHAIN_ENV }),
  e2e("link-write-dangling-secret", "refused", EDIT, write("future.txt"), { links: { "future.txt": ".env.local" } }),
  e2e("link-write-dangling-secret-yolo", "refused", YOLO, write("future.txt"), { links: { "future.txt": ".env.local" } }),
  e2e("link-write-dangling-outside", "asked", EDIT, write("future.txt"), { links: { "future.txt": "{root}/other-project/new.txt" } }),
  e2e("link-write-dangling-home-key-yolo", "refused", YOLO, write("future.txt"), { links: { "future.txt": "{home}/.ssh/id_ed25519" } }),
  e2e("link-write-dangling-chain-ignored", "refused", EDIT, write("d1"), { links: { d1: "d2", d2: "private/new.txt" } }),

  // replace_in_file: its "closest region" error quoted the secret line.
  e2e("link-replace-env", "refused", EDIT, replace("settings.txt"), { links: ENV }),
  e2e("link-replace-env-yolo", "refused", YOLO, replace("settings.txt"), { links: ENV }),
  e2e("link-replace-ignored-folder-yolo", "refused", YOLO, replace("pub/keys.txt", "token=guess", "token=x"), { links: PRIVATE }),
  e2e("link-replace-outside-file", "asked", EDIT, replace("other.txt", "other project: guess", "x"), { links: OTHER_FILE }),
  e2e("link-replace-home-credentials-yolo", "refused", YOLO, replace("creds.txt", "aws_secret_access_key=guess", "x"), {
    links: { "creds.txt": "{home}/.aws/credentials" },
  }),
  e2e("link-replace-chain-ignored-yolo", "refused", YOLO, replace("a.txt", "token=guess", "x"), { links: { "a.txt": "b.txt", "b.txt": "private/keys.txt" } }),

  // list_code_definition_names: the marker names a function in the ignored and the outside file.
  e2e("link-defs-ignored-folder", "refused", NONE, defs("pub"), { links: PRIVATE }),
  e2e("link-defs-ignored-file-yolo", "refused", YOLO, defs("vault.py"), { links: { "vault.py": "private/vault.py" } }),
  e2e("link-defs-root-skips-ignored-link", "allowed", NONE, defs("."), { links: { "vault.py": "private/vault.py" }, mustSee: "setup" }),
  e2e("link-defs-src-skips-ignored-link", "allowed", NONE, defs("src"), { links: { "src/vault.py": "../private/vault.py" }, mustSee: "main" }),
  e2e("link-defs-outside-folder", "asked", NONE, defs("ext"), { links: OTHER_FOLDER }),
  e2e("link-defs-root-skips-outside-link", "allowed", NONE, defs("."), { links: { "lib.py": "{root}/other-project/lib.py" }, mustSee: "setup" }),

  // Spellings of a path that reach the secret without a link of ours: `..`, absolute, /proc's own links.
  e2e("link-spelling-dotdot-env", "refused", NONE, read("src/../.env")),
  e2e("link-spelling-absolute-env-yolo", "refused", YOLO, read("{ws}/.env")),
  e2e("link-proc-self-cwd-env-yolo", "refused", YOLO, read("/proc/self/cwd/.env")),
  e2e("link-proc-self-root-env-yolo", "refused", YOLO, read("/proc/self/root{ws}/.env")),
  e2e("link-proc-self-cwd-ignored-folder", "refused", NONE, list("/proc/self/cwd/private")),

  // Links the model makes during the task, then uses: the link command may run, the use is judged as its target.
  e2e("link-mid-task-home-then-search", "allowed", YOLO, cmd("ln -s ~ h"), { then: [search(".")] }),
  e2e("link-mid-task-outside-then-list", "allowed", YOLO, cmd("ln -s ../../other-project ext"), { then: [list(".", true)] }),
  e2e("link-mid-task-ssh-then-read-key", "allowed", YOLO, cmd("ln -s ~/.ssh keys"), { then: [read("keys/id_rsa")] }),
  e2e("link-mid-task-private-then-read", "asked", YOLO, cmd("ln -s private pub"), { then: [read("pub/keys.txt")], note: "the command names an ignored folder" }),
  e2e("link-mid-task-env-then-write", "asked", YOLO, cmd("ln -s .env out.txt"), { then: [write("out.txt")], note: "the command names .env" }),
  e2e("link-mid-task-env-glob-then-read", "asked", YOLO, cmd("ln -s .e* out.txt"), { then: [read("out.txt")], note: "the glob matches .env" }),
  e2e("link-mid-task-hidden-name-then-read", "allowed", YOLO, cmd("ln -s $(printf .en)v out.txt"), {
    then: [read("out.txt")],
    orElse: "refused",
    note: "whether YOLO runs the substitution or refuses it, the read through the link must not see .env",
  }),

  // Commands that read through a link in the workspace.
  e2e("link-command-cat-env", "asked", SAFE, cmd("cat settings.txt"), {
    links: ENV,
    note: "a command is not a file tool, but the promise is that secret files are never read without approval",
  }),
  e2e("link-command-cat-outside", "asked", SAFE, cmd("cat ext/x"), {
    links: OTHER_FOLDER,
    note: "§3: a read-only command that reaches outside the workspace asks; a link is judged as its target",
  }),
];
