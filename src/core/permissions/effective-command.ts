/**
 * The command that really runs behind wrappers: `sudo rm` is `rm`, so is `command rm`, `\rm`,
 * `'rm'`, `/bin/rm`, `env FOO=1 rm`, `xargs rm` and `busybox rm`.
 */
import { shortCluster } from "./options";
import { staticText } from "./resolve-words";
import type { ShellArg } from "./shell-script";

export interface EffectiveCommand {
  /** The program's base name (`rm` for `/usr/bin/rm`). */
  readonly name: string;
  /** The command word as written, quotes removed (`/usr/bin/rm`, `./install.sh`). */
  readonly word: string;
  readonly args: readonly ShellArg[];
  /** The wrappers peeled off, outermost first (`["sudo"]`). */
  readonly wrappers: readonly string[];
}

interface WrapperSpec {
  readonly shortWithValue: string;
  readonly longWithValue: readonly string[];
  /** Operands the wrapper takes before the command (`timeout 5 cmd`). */
  readonly operands?: number;
  /** Options after which the wrapper runs nothing (`command -v rm` only looks it up). */
  readonly query?: string;
  readonly assignments?: boolean;
}

const ELEVATION = ["sudo", "doas", "pkexec", "run0"] as const;

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { shortWithValue: "ugpChDrtUT", longWithValue: ["user", "group", "prompt", "close-from", "host", "chdir", "role", "type", "other-user", "command-timeout"], assignments: true, query: "lVv" },
  doas: { shortWithValue: "uC", longWithValue: [] },
  pkexec: { shortWithValue: "", longWithValue: ["user"] },
  run0: { shortWithValue: "uDg", longWithValue: ["user", "group", "chdir", "setenv", "property", "description", "slice", "nice"] },
  env: { shortWithValue: "uCS", longWithValue: ["unset", "chdir", "split-string"], assignments: true },
  command: { shortWithValue: "", longWithValue: [], query: "vV" },
  builtin: { shortWithValue: "", longWithValue: [] },
  exec: { shortWithValue: "a", longWithValue: [] },
  nohup: { shortWithValue: "", longWithValue: [] },
  setsid: { shortWithValue: "", longWithValue: [] },
  nice: { shortWithValue: "n", longWithValue: ["adjustment"] },
  ionice: { shortWithValue: "cnpPu", longWithValue: ["class", "classdata", "pid", "pgid", "uid"] },
  timeout: { shortWithValue: "sk", longWithValue: ["signal", "kill-after"], operands: 1 },
  stdbuf: { shortWithValue: "ioe", longWithValue: ["input", "output", "error"] },
  time: { shortWithValue: "fo", longWithValue: ["format", "output"] },
  xargs: { shortWithValue: "adEILnPs", longWithValue: ["arg-file", "delimiter", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"] },
  nocorrect: { shortWithValue: "", longWithValue: [] },
  noglob: { shortWithValue: "", longWithValue: [] },
  // One binary holding rm, sh, find…: its first operand names the applet.
  busybox: { shortWithValue: "", longWithValue: [] },
  toybox: { shortWithValue: "", longWithValue: [] },
  fakeroot: { shortWithValue: "ilsb", longWithValue: ["lib", "faked"] },
  unbuffer: { shortWithValue: "", longWithValue: [] },
  chronic: { shortWithValue: "", longWithValue: [] },
  flock: { shortWithValue: "wEc", longWithValue: ["timeout", "conflict-exit-code", "command"], operands: 1 },
  taskset: { shortWithValue: "", longWithValue: [], operands: 1 },
};

/** The base name of a command word, or null when it is not a fixed word (`$CMD`). */
export function commandName(arg: ShellArg | undefined): string | null {
  const value = arg ? staticText(arg) : null;
  if (value === null || value === "") return null;
  return value.includes("/") ? (value.split("/").pop() ?? "") || null : value;
}

export function isElevation(name: string): boolean {
  return (ELEVATION as readonly string[]).includes(name);
}

/** Peels wrappers off `args`; null when a wrapper's own arguments cannot be read. */
export function effectiveCommand(args: readonly ShellArg[]): EffectiveCommand | null {
  const wrappers: string[] = [];
  let rest = args;
  for (;;) {
    const name = commandName(rest[0]);
    if (name === null) return null;
    const word = staticText(rest[0] as ShellArg) ?? name;
    const spec = WRAPPERS[name];
    if (spec === undefined) return { name, word, args: rest.slice(1), wrappers };
    const inner = skipWrapperArgs(rest.slice(1), spec);
    if (inner === null) return null;
    // A wrapper with nothing to run (`sudo -v`, `command -v rm`, bare `env`) is itself the command.
    if (inner === "query" || inner.length === 0) return { name, word, args: rest.slice(1), wrappers };
    wrappers.push(name);
    rest = inner;
  }
}

function skipWrapperArgs(args: readonly ShellArg[], spec: WrapperSpec): readonly ShellArg[] | "query" | null {
  let operands = spec.operands ?? 0;
  for (let i = 0; i < args.length; i++) {
    const value = staticText(args[i] as ShellArg);
    if (value === null) return null;
    if (value === "--") return args.slice(i + 1 + operands);
    if (value.startsWith("--") && value.length > 2) {
      if (!value.includes("=") && spec.longWithValue.includes(value.slice(2))) i++;
    } else if (value.startsWith("-") && value.length > 1) {
      const cluster = shortCluster(value, spec.shortWithValue);
      if (spec.query && [...cluster.letters].some((l) => spec.query?.includes(l))) return "query";
      if (cluster.valueInNextArg) i++;
    } else if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) {
      continue;
    } else if (operands > 0) {
      operands--;
    } else {
      return args.slice(i);
    }
  }
  return [];
}
