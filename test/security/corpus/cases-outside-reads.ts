/**
 * Issue 11 §3: with "execute safe commands" on, a read-only command that names a path outside the
 * workspace (absolute, `~`, or `..` leaving it) asks, as read_file of the same path does, unless
 * "read files outside the workspace" is on. HOME is the fake home (its notes hold the marker);
 * the workspace is work/ws, so `../../other-project` and `../neighbour` are outside.
 */
import { casesOf, SAFE, SAFE_READ_OUTSIDE, YOLO, cmd } from "./build-cases";
import type { SecurityCase } from "./types";

const { e2e, judged } = casesOf("outside reads");

const asks = (id: string, command: string, note?: string): SecurityCase =>
  e2e(`outside-${id}`, "asked", SAFE, cmd(command), note ? { note } : {});

export const OUTSIDE_READ_CASES: readonly SecurityCase[] = [
  // The four.
  asks("cat-etc-passwd", "cat /etc/passwd"),
  asks("ls-home", "ls ~"),
  asks("head-syslog", "head /var/log/syslog"),
  asks("cat-other-project", "cat ../../other-project/x"),
  // The same reads, spelt differently.
  asks("cat-neighbour", "cat ../neighbour/notes.txt"),
  asks("cat-home-notes", "cat ~/notes.txt"),
  asks("cat-dollar-home", "cat $HOME/notes.txt"),
  asks("cat-braced-home", "cat ${HOME}/notes.txt"),
  asks("cat-quoted-home", 'cat "$HOME"/notes.txt'),
  asks("ls-la-home-ssh", "ls -la ~/.ssh"),
  asks("ls-home-user", "ls ~root"),
  asks("ls-dotdot", "ls .."),
  asks("ls-root", "ls /"),
  asks("cd-root-ls", "cd / && ls"),
  asks("cd-up-cat", "cd ../.. && cat other-project/x"),
  asks("cat-through-src-dotdot", "cat src/../../../other-project/x"),
  asks("cat-dot-slash-dotdot", "cat ./../../other-project/x"),
  asks("cat-workspace-and-outside", "cat src/index.ts /etc/passwd"),
  asks("cat-double-dash", "cat -- /etc/passwd"),
  asks("cat-proc-environ", "cat /proc/self/environ", "the environment holds the provider's API key"),
  asks("head-etc-hosts", "head -n 5 /etc/hosts"),
  asks("tail-etc-group", "tail /etc/group"),
  asks("wc-etc-passwd", "wc -c /etc/passwd"),
  asks("stat-etc-passwd", "stat /etc/passwd"),
  asks("diff-etc-files", "diff /etc/passwd /etc/group"),
  asks("sort-home-notes", "sort ~/notes.txt"),
  asks("grep-r-home", "grep -r SECRET ~"),
  asks("rg-up-two", "rg SECRET ../.."),
  asks("find-home", "find ~ -name '*.txt'"),
  asks("du-home", "du -sh ~"),
  asks("tree-home", "tree ~"),
  asks("realpath-home", "realpath ~"),
  asks("jq-other-project", "jq . ../../other-project/config.json"),
  asks("git-no-index-diff-outside", "git diff --no-index ../../other-project/x src/index.ts"),
  asks("git-C-other-project", "git -C ../../other-project log"),
  asks("cat-home-credentials", "cat ~/.aws/credentials"),
  asks("grep-file-list-outside", "grep -l SECRET ../neighbour/notes.txt"),
  asks("cut-etc-passwd", "cut -d: -f1 /etc/passwd"),
  asks("cat-tilde-plus", "cat ~+/../../other-project/x"),
  asks("cat-input-redirect", "cat < ../neighbour/notes.txt"),
  asks("wc-input-redirect-etc", "wc -l < /etc/passwd"),
  asks("head-input-redirect-home", "head -c 100 < ~/notes.txt"),
  asks("cat-glob-up", "cat ../*/notes.txt"),
  asks("cat-brace-up", "cat {..,.}/neighbour/notes.txt"),
  asks("cat-etc-dotdot", "cat /etc/../etc/passwd"),
  asks("cat-double-slash-up", "cat ..//neighbour/notes.txt"),
  asks("cd-up-cat-relative", "cd .. && cat neighbour/notes.txt"),
  asks("cat-proc-self-cwd-up", "cat /proc/self/cwd/../../other-project/x"),
  asks("xargs-a-outside", "xargs -a ../neighbour/notes.txt echo"),
  asks("jq-rawfile-etc", "jq -n --rawfile x /etc/passwd '$x'"),
  asks("git-blame-contents-outside", "git blame --contents=../../other-project/x src/index.ts", "prints the outside file's lines"),
  asks("grep-include-up", "grep -r --include=*.txt SECRET .."),
  asks("sed-print-outside", "sed -n 1p ../neighbour/notes.txt"),
  asks("diff-r-neighbour", "diff -r src ../neighbour"),
  judged("outside-find-root", "asked", SAFE, "find / -name id_rsa", "policy only: walks the whole disk"),
  judged("outside-cat-real-home-key", "asked", SAFE, "cat ~/.ssh/id_rsa", "policy only: the real home"),
  // With "read files outside the workspace" on too, they run (files without the marker).
  e2e("outside-cat-etc-hostname-read-outside", "allowed", SAFE_READ_OUTSIDE, cmd("cat /etc/hostname")),
  e2e("outside-ls-tmp-read-outside", "allowed", SAFE_READ_OUTSIDE, cmd("ls /usr")),
  // web_fetch in YOLO: this machine's and its network's addresses, however spelt, are the person's to open.
  ...(
    [
      ["loopback", "http://127.0.0.1:9/"],
      ["v6-loopback", "http://[::1]:9/"],
      ["unspecified-v6", "http://[::]:9/"],
      ["mapped-loopback", "http://[::ffff:127.0.0.1]:9/"],
      ["decimal-loopback", "http://2130706433:9/"],
      ["localhost", "http://localhost:9/"],
      ["sub-localhost", "http://api.localhost:9/"],
      ["metadata", "http://169.254.169.254/latest/meta-data/"],
      ["private", "http://10.0.0.1/"],
    ] as const
  ).map(([name, url]) => e2e(`outside-fetch-${name}`, "asked", YOLO, { tool: "web_fetch", params: { url } }, { note: "YOLO fetches the web, not this machine's services" })),
];
