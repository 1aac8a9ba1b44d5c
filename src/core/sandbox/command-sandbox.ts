/**
 * The OS sandbox commands run in: @anthropic-ai/sandbox-runtime (bubblewrap, a seccomp filter
 * and network proxies on Linux; Seatbelt on macOS). One per process, because the library is:
 * its proxies run in this process, so a sandboxed command must never be waited for
 * synchronously. Finds out once whether the machine offers a working sandbox (a real probe,
 * not only a look for the programs), and wraps each command line into one that runs confined.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { SandboxManager, SandboxRuntimeConfig } from "@anthropic-ai/sandbox-runtime";
import type { SandboxStatus } from "../../shared/sandbox-status";
import type { SandboxSettings } from "../../shared/settings";
import { errorText } from "../util/error-text";
import { isProcessRunning } from "../util/process-running";
import { isWithin } from "../util/real-paths";
import { REGISTRY_DOMAINS } from "./network-domains";
import { isLocalAddress, LOCAL_ADDRESS_RANGES, LOCAL_HOST_NAMES } from "../util/local-addresses";
import { credentialCasePatterns, homeDeniedReads, workspaceReadOnlyPaths } from "./protected-locations";
import { leaveProcessGroup, processLimitLines, removeLeftoverProcessGroups } from "./process-limit";
import { ensureVendorExecutable } from "./vendor-files";
import { socatDyingWithParent } from "./bridge-program";
import { shellQuote } from "./shell-quote";
import { findBlocked, withGitUndone, type BlockedFinding } from "./blocked-report";
import { gitDirsOf, restoreGitControl, snapshotGitControl } from "./git-control-files";
import type { CommandScope } from "./command-scope";
import type { PathGuard } from "../ignore/path-guard";
import { WorkspaceWalks } from "./workspace-scan";
import { NOTHING_TO_SCAN } from "./no-cwd-scan";

type Manager = typeof SandboxManager;


export interface SandboxStartOptions {
  /** The host's own storage (keys, task histories, logs): commands may not read it. */
  readonly privateStorage?: readonly string[];
  /** Default: the user's home folder. */
  readonly home?: string;
  /**
   * Off stays off until update() says otherwise, so the machine is probed only once a mode needs
   * it (the CLI's `--sandbox off`: a run that never sandboxes skips the probe's processes).
   * Without it the probe runs at once, so a settings view can say what turning it on would do.
   */
  readonly probeWhenNeeded?: boolean;
  /**
   * The check waits for this (the panel's first state, which loading the library and its probe
   * processes would delay), unless something needs the sandbox first: ready(), update(), a command.
   */
  readonly checkAfter?: Promise<unknown>;
}


/** A command made ready to run confined. */
export interface SandboxedLine {
  /** What the terminal runs instead of the command: a short line that starts the sandbox. */
  readonly line: string;
  /** After it ended: what the sandbox blocked, for the model and the person; undefined when nothing points to the sandbox. */
  blocked(exitCode: number | null, output: string): BlockedFinding | undefined;
  /** The hosts the sandbox let it reach so far ("host" for ports 80 and 443, else "host:port"). */
  hostsReached(): readonly string[];
  /** Once the command has ended. */
  release(): void;
}

const PROBE_TIMEOUT_MS = 15_000;

export class CommandSandbox {
  private settings: SandboxSettings;
  private readonly home: string;
  private readonly privateStorage: readonly string[];
  private current: SandboxStatus;
  private manager: Manager | undefined;
  /** This process's folder in the system temp folder: launchers, and each task's temp folder. */
  private processDir: string | undefined;
  private launches = 0;
  /** The seccomp helper beside the bundle (undefined: the library finds its own). */
  private seccompHelper: string | undefined;
  /** socat as the library starts it, dying with this process (undefined: the library's own lookup). */
  private bridgeProgram: string | undefined;
  /** Undefined until the check starts (see SandboxStartOptions.checkAfter). */
  private checked: Promise<void> | undefined;
  private readonly beginCheck: () => Promise<void>;
  /** Settles with the first check, however it started (settled() waits here without starting it). */
  private readonly firstCheck: Promise<void>;
  private firstCheckDone!: () => void;
  private probed = false;
  private disposed = false;
  /** The hosts each running command was let reach (the proxy cannot tell which command asked: all hear it). */
  private readonly reaching = new Set<Set<string>>();
  /** Per guard (another guard judges by other rules), per workspace: kept across the session's tasks. */
  private readonly walks = new WeakMap<PathGuard, Map<string, WorkspaceWalks>>();

  private constructor(settings: SandboxSettings, options: SandboxStartOptions) {
    this.settings = settings;
    this.home = options.home ?? homedir();
    this.privateStorage = options.privateStorage ?? [];
    this.current = this.statusWith({ available: false, reason: "The sandbox is being checked." });
    const probeNow = !(options.probeWhenNeeded && settings.mode === "off");
    if (!probeNow) this.current = this.statusWith({ available: false, reason: "Not checked: the sandbox is off for this run." });
    this.firstCheck = new Promise((resolve) => (this.firstCheckDone = resolve));
    this.beginCheck = () =>
      Promise.all([probeNow ? this.check() : undefined, removeLeftoverFolders()])
        .then(() => undefined)
        .finally(() => this.firstCheckDone());
    if (options.checkAfter) void options.checkAfter.then(() => this.whenChecked(), () => this.whenChecked());
    else void this.whenChecked();
  }

  /** The check, started now if it had not started. */
  private whenChecked(): Promise<void> {
    return (this.checked ??= this.beginCheck());
  }

  /** Starts checking at once; `ready()` (and every wrap) waits for the check. */
  static create(settings: SandboxSettings, options: SandboxStartOptions = {}): CommandSandbox {
    return new CommandSandbox(settings, options);
  }

  /** The state once the machine has been checked (the check starts now if it was waiting). */
  async ready(): Promise<SandboxStatus> {
    await this.whenChecked();
    return this.current;
  }

  /** The state once the machine has been checked, without hurrying the check (the panel's feed). */
  async settled(): Promise<SandboxStatus> {
    await this.firstCheck;
    return this.current;
  }

  /** The state as known now (while the check runs: not available). */
  get status(): SandboxStatus {
    return this.current;
  }

  /** New settings: the mode and network apply to the next command. */
  async update(settings: SandboxSettings): Promise<SandboxStatus> {
    await this.whenChecked();
    this.settings = settings;
    if (!this.probed && settings.mode !== "off") {
      this.checked = this.check();
      await this.checked;
    }
    const available = this.current.available;
    this.current = this.statusWith({ available, reason: this.current.reason, technology: this.current.technology });
    if (this.manager && available) this.manager.updateConfig(this.baseConfig());
    return this.current;
  }

  /** Wraps `command` to run confined in `scope`. Throws when the sandbox is not active. */
  async wrap(command: string, scope: CommandScope, signal?: AbortSignal): Promise<SandboxedLine> {
    await this.whenChecked();
    const manager = this.manager;
    if (!this.current.active || !manager) throw new Error(this.current.reason ?? "The sandbox is not active.");
    const commandId = randomBytes(16).toString("base64url");
    const inner = innerCommand(command, scope);
    const config = this.commandConfig(scope);
    leaveWritableFolders(this.writable(scope), this.folder());
    this.makeListedFolders();
    const wrapped = await manager.wrapWithSandbox(inner, "/bin/sh", config, signal, { commandId, commandText: command });
    const launcher = this.writeLauncher(wrapped, processLimitLines());
    const gitDirs = gitDirsOf(scope.roots, scope.readOnly);
    const gitBefore = snapshotGitControl(gitDirs);
    let gitUndone: string[] = [];
    let released = false;
    const hosts = new Set<string>();
    this.reaching.add(hosts);
    return {
      hostsReached: () => [...hosts],
      // The command rides along as an argument the launcher ignores, so the terminal shows what runs.
      line: `/bin/sh ${shellQuote(launcher)} ${shellQuote(command)}`,
      blocked: (exitCode, output) => {
        const violations = manager.annotateStderrWithSandboxFailures(commandId, "");
        return withGitUndone(findBlocked({ exitCode, output, violations, scope, settings: this.settings, status: this.current, home: this.home }), gitUndone);
      },
      release: () => {
        if (released) return;
        released = true;
        this.reaching.delete(hosts);
        rmSync(launcher, { force: true });
        manager.cleanupAfterCommand();
        gitUndone = restoreGitControl(gitDirs, gitBefore);
      },
    };
  }

  /** The session's walks of the workspace at `roots` under `guard`: a new task uses the last one while its own runs. */
  walksOf(roots: readonly string[], guard: PathGuard): WorkspaceWalks {
    let byRoots = this.walks.get(guard);
    if (!byRoots) this.walks.set(guard, (byRoots = new Map()));
    const key = roots.join("\0");
    let walks = byRoots.get(key);
    if (!walks) byRoots.set(key, (walks = new WorkspaceWalks(roots, guard)));
    return walks;
  }

  /** A new temp folder for a task: writable inside the sandbox, where TMPDIR points. */
  makeTaskTemp(): string {
    return mkdtempSync(path.join(this.folder(), "task-"));
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.checked?.catch(() => {});
    if (this.processDir) {
      if (isWithin(this.processDir, process.cwd())) process.chdir(tmpdir());
      rmSync(this.processDir, { recursive: true, force: true });
    }
    leaveProcessGroup();
    if (this.manager) await this.manager.reset().catch(() => {});
  }

  private statusWith(found: { available: boolean; reason?: string; technology?: string }): SandboxStatus {
    const mode = this.settings.mode;
    const active = found.available && mode !== "off";
    return {
      mode,
      available: found.available,
      active,
      refusesCommands: mode === "on" && !found.available,
      ...(found.technology ? { technology: found.technology } : {}),
      ...(found.reason && !active ? { reason: found.reason } : {}),
      network: this.settings.network,
      allowedDomains: this.allowedDomains(),
      writableFolders: [...this.settings.writableFolders],
      deniedReads: [...homeDeniedReads(this.home), ...this.privateStorage],
    };
  }

  private async check(): Promise<void> {
    this.probed = true;
    try {
      const found = await this.probe();
      this.current = this.statusWith(found);
    } catch (error) {
      this.current = this.statusWith({ available: false, reason: `The sandbox could not be started: ${errorText(error)}` });
    }
  }

  /** Loads the library, checks what it needs, starts it and runs `true` inside. */
  private async probe(): Promise<{ available: boolean; reason?: string; technology?: string }> {
    if (process.platform === "win32") return { available: false, reason: "Windows has no supported sandbox yet." };
    if (process.platform !== "linux" && process.platform !== "darwin") return { available: false, reason: `${process.platform} has no supported sandbox.` };
    const { SandboxManager } = await import("@anthropic-ai/sandbox-runtime");
    const technology = process.platform === "linux" ? "bubblewrap" : "Seatbelt";
    if (!SandboxManager.isSupportedPlatform()) return { available: false, reason: `This ${process.platform} system is not supported by the sandbox runtime.` };
    this.seccompHelper = ensureVendorExecutable(bundleFolder());
    this.bridgeProgram = socatDyingWithParent(`${PROCESS_DIR_PREFIX}${process.pid}-bridge-`);
    const dependencies = SandboxManager.checkDependencies(NO_CWD_SCAN);
    if (dependencies.errors.length > 0) return { available: false, reason: `${dependencies.errors.join("; ")}. ${installHint()}` };
    const { matchesDomainPatternWithPort } = await import("@anthropic-ai/sandbox-runtime/dist/sandbox/domain-pattern.js");
    const { canonicalizeHost } = await import("@anthropic-ai/sandbox-runtime/dist/sandbox/parent-proxy.js");
    // Every host the deny list lets through comes here, so the ledger hears the ones it allows.
    const decide = (host: string, port: number | undefined) => {
      const canonical = canonicalizeHost(host) ?? host;
      // No port known: only a pattern without one can match.
      const answer = this.allows(canonical, (pattern) => matchesDomainPatternWithPort(canonical, port ?? 0, pattern));
      if (answer === true) for (const reached of this.reaching) reached.add(hostText(canonical, port));
      return answer;
    };
    await SandboxManager.initialize(this.baseConfig(), async (request) => decide(request.host, request.port), true);
    this.manager = SandboxManager;
    const probeFailure = await this.runProbe(SandboxManager);
    if (probeFailure !== undefined) {
      this.manager = undefined;
      await SandboxManager.reset().catch(() => {});
      return { available: false, reason: `${technology} cannot create a sandbox on this machine: ${probeFailure}` };
    }
    return { available: true, technology };
  }

  /** Undefined when `true` ran confined; else what went wrong (user namespaces disabled, say). */
  private async runProbe(manager: Manager): Promise<string | undefined> {
    const cwd = mkdtempSync(path.join(this.folder(), "probe-"));
    try {
      const scope: CommandScope = { cwd, roots: [cwd], tempDir: cwd, hiddenReads: [], readOnly: [] };
      const wrapped = await manager.wrapWithSandbox("true", "/bin/sh", this.commandConfig(scope));
      const { code, stderr } = await runQuietly(wrapped, cwd);
      manager.cleanupAfterCommand();
      if (code === 0) return undefined;
      return stderr.trim().split("\n").at(-1) || `it exited with code ${code}`;
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }

  /**
   * The proxy's word on a host its deny list let through (`host` as the resolver reads it). The
   * allow list is decided here, not by the library, so every host a command reaches is heard. With
   * the network open ("all"), any host but an address of this machine or its network (127.0.0.2,
   * [::], [::ffff:127.0.0.1], 10.x: names of such addresses are the deny list's to refuse).
   */
  private allows(host: string, listed: (pattern: string) => boolean): true | { allow: false; reason: string } {
    const network = this.settings.network;
    if (network === "none") return { allow: false, reason: "the network is off for commands" };
    if (network === "allowList") return this.allowedDomains().some(listed) ? true : { allow: false, reason: "host is not on the allow list" };
    const literal = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
    let canonical: string;
    try {
      canonical = new URL(`http://${literal}/`).hostname; // as the resolver reads it: 2130706433 is 127.0.0.1
    } catch {
      return { allow: false, reason: "malformed host" };
    }
    return isLocalAddress(canonical) ? { allow: false, reason: "an address on this machine or its private network" } : true;
  }

  private allowedDomains(): string[] {
    if (this.settings.network !== "allowList") return [];
    return [...new Set([...REGISTRY_DOMAINS, ...this.settings.allowedDomains])];
  }

  /** The process-wide part: the network, and HOME's denied reads. */
  private baseConfig(): SandboxRuntimeConfig {
    const network = this.settings.network;
    return {
      network: {
        // Every host is left to allows(), which decides the allow list and, for "all", keeps this
        // machine's and its network's addresses out; names of them are refused here, and names
        // resolving there by the proxy.
        allowedDomains: [],
        deniedDomains: network === "all" ? [...LOCAL_HOST_NAMES] : [],
        ...(network === "all" ? { deniedResolvedAddresses: [...LOCAL_ADDRESS_RANGES] } : {}),
      },
      filesystem: { denyRead: this.deniedReads([]), allowWrite: [], denyWrite: [] },
      // Tandem lists the workspace's protected paths itself (protected-locations.ts, and the scan for nested ones).
      ripgrep: NO_CWD_SCAN,
      mandatoryDenySearchDepth: 1,
      ...(this.seccompHelper ? { seccomp: { applyPath: this.seccompHelper } } : {}),
      ...(this.bridgeProgram ? { socatPath: this.bridgeProgram } : {}),
    };
  }

  /** One command's file system: the workspace and temp writable, guard files read-only, secrets hidden. */
  private commandConfig(scope: CommandScope): Partial<SandboxRuntimeConfig> {
    const writable = this.writable(scope);
    // Tandem itself (the bundle, the seccomp helper) runs outside the sandbox: never writable from inside.
    const ownFiles = [bundleFolder(), ...(this.seccompHelper ? [path.dirname(this.seccompHelper)] : []), ...(this.bridgeProgram ? [this.bridgeProgram] : [])].filter((own) =>
      writable.some((folder) => isWithin(folder, own)),
    );
    return {
      filesystem: {
        denyRead: this.deniedReads(scope.hiddenReads),
        allowWrite: writable,
        denyWrite: [...scope.roots.flatMap(workspaceReadOnlyPaths), ...scope.readOnly, ...ownFiles],
      },
    };
  }

  /** Where a command in `scope` may write: the workspace, the task's temp folder, the person's folders. */
  private writable(scope: CommandScope): string[] {
    return [...scope.roots, scope.tempDir, ...this.settings.writableFolders.map((folder) => expandHome(folder, this.home))];
  }

  /** A folder the person listed as writable must exist for the sandbox to let commands write it. */
  private makeListedFolders(): void {
    for (const folder of this.settings.writableFolders) {
      try {
        mkdirSync(expandHome(folder, this.home), { recursive: true });
      } catch {
        // Cannot be made (a file there, no permission): it stays unwritable, as the settings view shows.
      }
    }
  }

  /** What exists of them: a deny of a missing path hides nothing (the library says so), and each costs the wrap. */
  private deniedReads(hidden: readonly string[]): string[] {
    return [...homeDeniedReads(this.home), ...this.privateStorage].filter((entry) => existsSync(entry)).concat(hidden);
  }

  private folder(): string {
    if (!this.processDir) {
      this.processDir = mkdtempSync(path.join(tmpdir(), `${PROCESS_DIR_PREFIX}${process.pid}-`));
      chmodSync(this.processDir, 0o700);
      mkdirSync(path.join(this.processDir, "launchers"), { mode: 0o700 });
    }
    return this.processDir;
  }

  /**
   * Launchers live where no sandboxed command can write: a running one must not rewrite the next.
   * Before the sandbox starts, they drop credentials from the environment and cap the processes.
   */
  private writeLauncher(wrapped: string, limitLines: string): string {
    const file = path.join(this.folder(), "launchers", `sandboxed-command-${++this.launches}.sh`);
    writeFileSync(file, `${DROP_CREDENTIALS}\n${limitLines}\n${wrapped}\n`, { mode: 0o600 });
    return file;
  }
}

const PROCESS_DIR_PREFIX = "tandem-sandbox-";

/**
 * Shell lines that unset the exported variables named like credentials, from the shell's own list
 * (`export -p`, a builtin: `env | sed` cost two programs per command). A value spanning lines
 * shows its later lines too; only lines that start a variable, with a valid name, count.
 */
const DROP_CREDENTIALS = [
  `_tandem_ifs=$IFS; IFS='\n'; set -f`,
  `for _tandem_v in $(export -p); do`,
  `  case "$_tandem_v" in "export "* | "declare -x "*) ;; *) continue ;; esac`,
  `  _tandem_v=\${_tandem_v#export }; _tandem_v=\${_tandem_v#declare -x }; _tandem_v=\${_tandem_v%%=*}`,
  `  case "$_tandem_v" in "" | [0-9]* | *[!A-Za-z0-9_]*) ;; ${credentialCasePatterns().join(" | ")}) unset "$_tandem_v" ;; esac`,
  `done`,
  `set +f; IFS=$_tandem_ifs; unset _tandem_v _tandem_ifs`,
].join("\n");

/**
 * The library looks with ripgrep, before each command, for protected files below this process's
 * working folder. Tandem's is not the workspace (an editor's, or a folder of its own), and Tandem
 * finds the workspace's protected files itself (workspace-scan.ts), so that search is replaced by
 * one that lists nothing: it cost about 10 ms of every command (measured: `npm run bench sandbox`).
 * The bundles answer it without a process (no-cwd-scan.ts, swapped in by esbuild-options.mjs).
 */
const NO_CWD_SCAN = { command: NOTHING_TO_SCAN } as const;

/** The folder this code runs from: dist/ for the bundles. */
function bundleFolder(): string {
  return path.dirname(fileURLToPath(import.meta.url));
}

/**
 * The sandbox stands placeholders in for protected paths that are missing, in the working folder
 * of this process. Where that folder is writable inside (a CLI started in its workspace), they
 * would show in the workspace while a command runs; elsewhere none are made. So the process leaves
 * such a folder once, for its own (commands get their own folder; Tandem resolves every path
 * against the workspace).
 */
function leaveWritableFolders(writable: readonly string[], neutral: string): void {
  const here = process.cwd();
  // The process's own folder: read-only inside, and nearly empty for the library's scan of it.
  if (writable.some((folder) => isWithin(folder, here))) process.chdir(neutral);
}

/** Folders of Tandem processes that ended without removing theirs (killed, crashed). Never rejects. */
async function removeLeftoverFolders(): Promise<void> {
  removeLeftoverProcessGroups();
  try {
    for (const name of await readdir(tmpdir())) {
      const pid = Number(new RegExp(`^${PROCESS_DIR_PREFIX}(\\d+)-`).exec(name)?.[1]);
      if (pid > 0 && pid !== process.pid && !isProcessRunning(pid)) await rm(path.join(tmpdir(), name), { recursive: true, force: true });
    }
  } catch {
    // A temp folder we cannot list or clean costs disk space, nothing else.
  }
}

/** Inside: TMPDIR is the task's temp folder, and the person's shell runs the line as typed. */
function innerCommand(command: string, scope: CommandScope): string {
  const temp = shellQuote(scope.tempDir);
  return `TMPDIR=${temp} TMP=${temp} TEMP=${temp}; export TMPDIR TMP TEMP; exec ${shellQuote(scope.shell ?? "/bin/sh")} -c ${shellQuote(command)}`;
}

/** A reached host as the ledger lists it: web_fetch's URL hosts leave the usual ports out too. */
function hostText(host: string, port: number | undefined): string {
  const name = host.includes(":") ? `[${host}]` : host;
  return port === undefined || port === 80 || port === 443 ? name : `${name}:${port}`;
}

function expandHome(folder: string, home: string): string {
  if (folder === "~") return home;
  if (folder.startsWith("~/")) return path.join(home, folder.slice(2));
  return path.resolve(folder);
}

function installHint(): string {
  return process.platform === "darwin"
    ? "macOS's sandbox-exec should be there; see the message above."
    : "Install the sandbox's packages: sudo apt-get install bubblewrap socat (Fedora: sudo dnf install bubblewrap socat).";
}

/** Runs the probe asynchronously: the library's proxies answer from this process. */
function runQuietly(line: string, cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", line], { cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => (stderr = (stderr + text).slice(-4000)));
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: error.message });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}
