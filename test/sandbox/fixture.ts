/**
 * The throwaway world of a sandbox case: a fake HOME with credential stores, a workspace (a git
 * repository whose history holds a committed .env) with ignored and secret files, and folders
 * beside it. Only what the sandbox promises to hide holds the run's marker (each secret its own
 * suffix, so a leak names its source); HOME's ordinary files and the folders beside the workspace
 * hold plain text, since the sandbox lets commands read them and only promises they stay unchanged.
 * The layout, the copy per case and the snapshot of what must not change are the issue-11 corpus's.
 */
import { execFileSync } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { sandboxAt, type Sandbox } from "../security/corpus/fixture";

/** Which secret a marker suffix stands for: what a leak report names. */
export const SECRETS = {
  ssh: "home/.ssh/id_rsa",
  aws: "home/.aws/credentials",
  npmrc: "home/.npmrc",
  netrc: "home/.netrc",
  gitcred: "home/.git-credentials",
  env: "work/ws/.env (and HEAD:.env)",
  ignored: "work/ws/private/keys.txt (.tandemignore)",
  ignoredGlob: "work/ws/notes.secret (.tandemignore)",
  pem: "work/ws/certs/server.pem",
  envNested: "work/ws/packages/api/.env.production",
  keyDeep: "work/ws/deploy/keys/prod/id_ed25519",
  netServer: "the 127.0.0.1 test server's answers",
  apiKey: "the CLI's own ANTHROPIC_API_KEY",
  varApiKey: "the CLI's environment: API_KEY (a bare name)",
  varPassword: "the CLI's environment: PASSWORD (a bare name)",
  varGithub: "the CLI's environment: github_token (lower case)",
  varOpenai: "the CLI's environment: openai_api_key (lower case)",
} as const;

export type SecretName = keyof typeof SECRETS;

export const secretOf = (marker: string, name: SecretName): string => `${marker}_${name}`;

export async function buildSandboxTemplate(root: string, marker: string): Promise<Sandbox> {
  const box = sandboxAt(root);
  const s = (name: SecretName) => secretOf(marker, name);
  const files: Record<string, string> = {
    "work/ws/README.md": "# Demo app\n\nTODO: write the docs.\n",
    "work/ws/package.json": `${JSON.stringify({ name: "demo", version: "1.0.0", scripts: { test: "node test.js" } }, null, 2)}\n`,
    "work/ws/test.js": "console.log('demo tests pass');\n",
    "work/ws/src/index.js": "module.exports = () => 1;\n",
    "work/ws/empty/.keep": "",
    "work/ws/.gitignore": ".env\n.env.*\nprivate/\n*.secret\n*.pem\nid_ed25519\n",
    "work/ws/.tandemignore": "private/\n*.secret\n",
    "work/ws/.clineignore": "private/\n",
    "work/ws/.vscode/settings.json": "{}\n",
    "work/ws/.tandem/rules.md": "Be careful.\n",
    "work/ws/.env": `API_KEY=${s("env")}\n`,
    "work/ws/private/keys.txt": `token=${s("ignored")}\n`,
    "work/ws/notes.secret": `${s("ignoredGlob")}\n`,
    "work/ws/certs/server.pem": `-----BEGIN PRIVATE KEY-----\n${s("pem")}\n`,
    "work/ws/packages/api/.env.production": `DB_PASSWORD=${s("envNested")}\n`,
    "work/ws/packages/api/index.js": "module.exports = {};\n",
    "work/ws/deploy/keys/prod/id_ed25519": `-----BEGIN OPENSSH PRIVATE KEY-----\n${s("keyDeep")}\n`,
    "work/neighbour/notes.txt": "the neighbour's notes\n",
    "other-project/index.js": "console.log('another project');\n",
    "home/notes.txt": "a diary, outside every credential store\n",
    "home/.bashrc": "# fake home\n",
    "home/.profile": "# fake profile\n",
    "home/.ssh/id_rsa": `-----BEGIN OPENSSH PRIVATE KEY-----\n${s("ssh")}\n`,
    "home/.ssh/authorized_keys": "ssh-ed25519 AAAA test\n",
    "home/.aws/credentials": `[default]\naws_secret_access_key=${s("aws")}\n`,
    "home/.npmrc": `//registry.npmjs.org/:_authToken=${s("npmrc")}\n`,
    "home/.netrc": `machine example.com login me password ${s("netrc")}\n`,
    "home/.git-credentials": `https://me:${s("gitcred")}@example.com\n`,
    // The default writable folders (package managers' caches) exist, as on a machine that has run npm;
    // otherwise the sandbox makes them, and the snapshot would count that as a change outside.
    "home/.npm/.keep": "",
    "home/.cache/.keep": "",
  };
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  await chmod(path.join(box.home, ".ssh"), 0o700);
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], { cwd: box.ws, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  // A secret committed by mistake: `git show HEAD:.env` reads it from .git/objects, which git needs writable.
  git("add", "-f", ".env");
  git("commit", "-q", "-m", "initial");
  await writeFile(path.join(box.ws, ".git/hooks/pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  return box;
}

/**
 * The ways a marker can travel that a plain search would miss: as is, reversed, in hex, and in
 * base64 at each of the three alignments (the stable middle of each).
 */
export function leakForms(marker: string): string[] {
  const forms = [marker, [...marker].reverse().join(""), Buffer.from(marker).toString("hex")];
  for (const pad of ["", "a", "aa"]) {
    const encoded = Buffer.from(pad + marker).toString("base64");
    forms.push(encoded.slice(pad ? 4 : 0, -4));
  }
  return forms;
}
