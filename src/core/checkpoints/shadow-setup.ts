/**
 * Makes a workspace's shadow repository, and keeps its configuration as Tandem needs it. The
 * person's global and system git config never apply to it (git-process.ts), so this file is the
 * whole of its configuration: what makes a checkpoint exact (no line-end conversion, no clean
 * filters, no `$Id$` expansion), safe (no hooks, no fsmonitor program, no signing program) and
 * fast (untracked cache, index v4, no automatic gc, blobs streamed into one pack per bulk add).
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";
import { writeFileAtomic } from "../storage/atomic-write";
import { parseTempName, tempPathFor } from "../storage/temp-name";
import { isProcessRunning } from "../util/process-running";
import { runGit } from "./git-process";
import type { ShadowLocation } from "./shadow-location";
import { exists } from "./fs-probes";
import { decodeBytes, encodeText } from "./path-bytes";

/** The workspace's `.gitattributes` may ask git to convert files on the way in; this asks it not to. */
const ATTRIBUTES = [
  "# Written by Tandem: checkpoints keep every file byte for byte, whatever .gitattributes say.",
  "* -text -crlf -eol -ident -working-tree-encoding",
  "",
].join("\n");

/** What `git init` found out about the file system (symlinks, case, executable bits); kept as it said. */
const PROBED_KEYS = ["filemode", "symlinks", "ignorecase", "precomposeunicode"];

export interface ShadowSetup {
  readonly binary: string;
  /** The person's own global excludes file (readPersonalExcludesFile), so the store skips what their git skips. */
  readonly personalExcludesFile: string;
}

/**
 * Creates the repository if it is missing (a first run, or after the store was cleaned) and
 * rewrites its config when it differs. The repository is made complete in a temp folder and
 * renamed into place, so a kill during `git init` leaves only a temp folder, removed next time.
 */
export async function ensureShadowRepository(location: ShadowLocation, setup: ShadowSetup): Promise<void> {
  if (!(await exists(path.join(location.gitDir, "HEAD")))) await createRepository(location, setup);
  await writeSettings(location.gitDir, setup);
}

async function createRepository(location: ShadowLocation, setup: ShadowSetup): Promise<void> {
  await mkdir(location.folder, { recursive: true });
  await removeLeftoverFolders(location.folder);
  const temp = tempPathFor(location.gitDir);
  try {
    // An empty template: no sample hooks, nothing copied from the person's init.templateDir.
    await runGit(["init", "--bare", "--template=", "--initial-branch=tandem", temp], { cwd: location.folder, binary: setup.binary });
    await writeSettings(temp, setup);
    await writeFile(location.workspaceNote, `Tandem checkpoints of ${location.workTree}\n`);
    // Only a repository without HEAD gets here: one no operation can use.
    await rm(location.gitDir, { recursive: true, force: true });
    await rename(temp, location.gitDir);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

async function writeSettings(gitDir: string, setup: ShadowSetup): Promise<void> {
  const configFile = path.join(gitDir, "config");
  const current = (await readIfPresent(configFile)) ?? "";
  const hooksOff = path.join(gitDir, "tandem-no-hooks");
  const wanted = shadowConfig(current, { ...setup, hooksPath: hooksOff });
  if (wanted === current) return;
  await mkdir(hooksOff, { recursive: true });
  await mkdir(path.join(gitDir, "info"), { recursive: true });
  await writeFileAtomic(path.join(gitDir, "info", "attributes"), ATTRIBUTES);
  await writeFileAtomic(configFile, encodeText(wanted)); // an excludes file's name that is not UTF-8 keeps its bytes
}

/** Temp folders of repositories whose creation was killed (their maker no longer runs). */
async function removeLeftoverFolders(folder: string): Promise<void> {
  for (const name of await readdir(folder)) {
    const writerPid = parseTempName(name)?.writerPid;
    if (writerPid !== undefined && writerPid !== process.pid && !isProcessRunning(writerPid)) await rm(path.join(folder, name), { recursive: true, force: true });
  }
}

function shadowConfig(current: string, settings: ShadowSetup & { hooksPath: string }): string {
  const probed = PROBED_KEYS.flatMap((key) => {
    const match = new RegExp(`^\\s*${key}\\s*=\\s*(true|false)\\s*$`, "im").exec(current);
    return match ? [`\t${key} = ${match[1]}`] : [];
  });
  const lines = [
    "# Written by Tandem for its checkpoints; Tandem rewrites it when it differs.",
    "[core]",
    "\trepositoryformatversion = 0",
    ...probed,
    "\tbare = false",
    "\tlogAllRefUpdates = false",
    "\tautocrlf = false",
    "\tsafecrlf = false",
    `\thooksPath = ${quoted(settings.hooksPath)}`,
    "\tfsmonitor = false",
    "\tuntrackedCache = true",
    "\tquotePath = false",
    // Every blob counts as "big": `git add` streams them into one pack per run instead of a
    // loose file each (a loose object takes a whole disk block), and never delta-compresses.
    "\tbigFileThreshold = 1",
    // Speed over size: zlib's fastest level still shrinks source code about fourfold.
    "\tcompression = 1",
    `\texcludesFile = ${quoted(settings.personalExcludesFile)}`,
    "[index]",
    "\tversion = 4",
    "[gc]",
    "\tauto = 0",
    "[commit]",
    "\tgpgSign = false",
    "[user]",
    "\tname = Tandem",
    "\temail = checkpoints@tandem.invalid",
    "[advice]",
    "\taddEmbeddedRepo = false",
    "\taddIgnoredFile = false",
    "",
  ];
  return lines.join("\n");
}

/** A config value as git reads it back exactly (backslashes and quotes escaped). */
function quoted(value: string): string {
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/**
 * The person's global excludes file: `core.excludesFile` from their global config (read with
 * their own config, the one command that is), else git's default, `$XDG_CONFIG_HOME/git/ignore`
 * or `~/.config/git/ignore`. Named in the shadow's config either way, so it does not depend on
 * the environment of whoever runs the store.
 */
export async function readPersonalExcludesFile(binary: string, cwd: string): Promise<string> {
  // --default: an unset key is an empty answer, not exit code 1.
  const output = await runGit(["config", "--global", "--path", "--default", "", "--get", "core.excludesFile"], { cwd, binary, personalConfig: true });
  const configured = output.trim();
  if (configured !== "") return configured;
  const xdg = process.env.XDG_CONFIG_HOME;
  return path.join(xdg ? xdg : path.join(homedir(), ".config"), "git", "ignore");
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return decodeBytes(await readFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
