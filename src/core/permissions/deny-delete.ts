/**
 * Deny rules for recursive deletes, moves and recursive permission changes of protected folders,
 * by `rm`, `find`, `rsync` and `mv` alike.
 */
import type { EffectiveCommand } from "./effective-command";
import { abbreviates, parseOptions } from "./options";
import { protectedTarget, type ProtectedPlaces } from "./protected-paths";
import { expandArg, staticText } from "./resolve-words";
import type { ShellArg } from "./shell-script";

/** `rm -r`/`-R`/`--recursive` (or `--no-preserve-root`) of the root, home, workspace root, ... */
export function recursiveDeleteDenial(command: EffectiveCommand, places: ProtectedPlaces): string | null {
  if (command.name !== "rm") return null;
  const parsed = parseOptions(command.args);
  const recursive = /[rR]/.test(parsed.letters) || parsed.long.some((n) => abbreviates(n, "recursive"));
  const noPreserveRoot = parsed.long.some((n) => abbreviates(n, "no-preserve-root"));
  if (!recursive && !noPreserveRoot) return null;
  const hit = firstProtected(parsed.operands, places);
  return hit === null ? null : `recursive delete of ${hit}`;
}

/** `chmod -R`, `chown -R`, `chgrp -R` of the root, system folders or the home folder. */
export function recursivePermissionDenial(command: EffectiveCommand, places: ProtectedPlaces): string | null {
  if (command.name !== "chmod" && command.name !== "chown" && command.name !== "chgrp") return null;
  const parsed = parseOptions(command.args);
  if (!parsed.letters.includes("R") && !parsed.long.some((n) => abbreviates(n, "recursive", 3))) return null;
  // chmod takes its mode first (or as `-w`-like options); chown/chgrp take the owner first.
  const modeAsOption = command.name === "chmod" && parsed.options.some((o) => /^-[rwxXst]+$/.test(o));
  const byReference = parsed.long.some((n) => n === "reference");
  const targets = modeAsOption || byReference ? parsed.operands : parsed.operands.slice(1);
  const hit = firstProtected(targets, { ...places, workspaceRoot: null });
  return hit === null ? null : `recursive ${command.name} of ${hit}`;
}

export function firstProtected(operands: readonly ShellArg[], places: ProtectedPlaces): string | null {
  const env = { home: places.home, cwd: places.cwd };
  for (const operand of operands) {
    const known = expandArg(operand, env, "known");
    const hit = known === null ? null : protectedTarget(known, places);
    if (hit !== null) return hit;
    // `rm -rf "$DIR/"*` with DIR unset is `rm -rf /*`: the classic disk wipe.
    const unset = expandArg(operand, env, "unset-empty");
    const unsetHit = unset === null || unset === known ? null : protectedTarget(unset, places);
    if (unsetHit !== null) return `${unsetHit} if a variable in \`${operand.raw}\` is unset or empty`;
  }
  return null;
}

/** Tests that narrow what `find` matches; without one, `find ~ -delete` takes everything. */
const FIND_NARROWING = /^-(i?name|i?path|i?wholename|i?regex|i?lname|newer\w*|[acm]newer|[acm](time|min)|size|empty|perm|user|group|[ug]id|nouser|nogroup|inum|samefile|links|used|fstype|context|readable|writable|executable)$/;
const FIND_NEGATION = new Set(["!", "-not", "-o", "-or", ","]);
/** Programs that delete what `find -exec` hands them. */
const DELETERS = new Set(["rm", "rmdir", "unlink", "shred", "srm"]);

/** `find ~ -delete`, `find / -exec rm -rf {} +`: everything under a protected folder. */
export function findDeleteDenial(command: EffectiveCommand, places: ProtectedPlaces): string | null {
  const plan = findPlan(command);
  if (plan === null || !plan.deletes || plan.narrowed) return null;
  const hit = firstProtected(plan.starts, places);
  return hit === null ? null : `\`find ${plan.action}\` deletes everything under ${hit.replace(/^everything (in|under) /, "")}`;
}

export interface FindPlan {
  /** Where it starts (`.` when none is given). */
  readonly starts: ShellArg[];
  /** Deletes what it finds: `-delete`, or `-exec rm …`. */
  readonly deletes: boolean;
  readonly action: string;
  /** A test limits what it matches (`-name '*.log'`), and nothing negates it. */
  readonly narrowed: boolean;
  /** The commands its `-exec`/`-ok` actions run, `{}` left as written. */
  readonly runs: ShellArg[][];
}

/** What a `find` command line does, or null when it is not `find`. */
export function findPlan(command: EffectiveCommand): FindPlan | null {
  if (command.name !== "find") return null;
  const words = command.args.map((a) => staticText(a));
  let i = 0;
  // Leading options: -H -L -P -D debug -Olevel.
  while (i < words.length && /^-([HLP]|O\d*|D)$/.test(words[i] ?? "")) i += words[i] === "-D" ? 2 : 1;
  const startAt = i;
  // Start points run up to the first expression word; one only known at run time is a start point too.
  while (i < words.length && (words[i] === null || !/^[-!(),]/.test(words[i] as string))) i++;
  const starts = i > startAt ? command.args.slice(startAt, i) : [{ raw: ".", parts: [{ kind: "text" as const, value: ".", quoted: true }] }];
  let deletes = false;
  let action = "";
  let narrowed = false;
  let negated = false;
  const runs: ShellArg[][] = [];
  for (; i < words.length; i++) {
    const word = words[i] ?? null;
    if (word === "-delete") [deletes, action] = [true, "-delete"];
    else if (word !== null && FIND_NARROWING.test(word)) narrowed = true;
    else if (word !== null && FIND_NEGATION.has(word)) negated = true;
    else if (word === "-exec" || word === "-execdir" || word === "-ok" || word === "-okdir") {
      const exec = execAction(command.args, i);
      runs.push(exec.inner);
      if (exec.deleter !== null) [deletes, action] = [true, `${word} ${exec.deleter}`];
      i = exec.end;
    }
  }
  return { starts, deletes, action, narrowed: narrowed && !negated, runs };
}

/** The command of the `-exec` at `at`, up to its `;` or `+`, and the deleting program it names. */
function execAction(args: readonly ShellArg[], at: number): { inner: ShellArg[]; deleter: string | null; end: number } {
  const words = args.map((a) => staticText(a));
  const end = words.findIndex((w, k) => k > at && (w === ";" || w === "+"));
  const inner = args.slice(at + 1, end === -1 ? undefined : end);
  const name = inner[0] ? staticText(inner[0])?.split("/").pop() : undefined;
  return { inner, deleter: name !== undefined && DELETERS.has(name) ? name : null, end: end === -1 ? words.length : end };
}

const RSYNC_VALUES = "eBfTMz@";

/** `rsync --delete /empty/ ~/` empties the home folder; `--remove-source-files ~ …` moves it away. */
export function rsyncDenial(command: EffectiveCommand, places: ProtectedPlaces): string | null {
  const plan = rsyncPlan(command);
  if (plan === null) return null;
  const deleted = plan.deletesInDestination && plan.destination ? firstProtected([plan.destination], places) : null;
  if (deleted !== null) return `\`rsync --delete\` deletes what the source lacks from ${deleted}`;
  const moved = plan.removesSources ? firstProtected(plan.sources, places) : null;
  return moved === null ? null : `\`rsync --remove-source-files\` removes ${moved}`;
}

export interface RsyncPlan {
  readonly sources: ShellArg[];
  /** The local destination, or null when it is remote (`host:path`). */
  readonly destination: ShellArg | null;
  readonly deletesInDestination: boolean;
  readonly removesSources: boolean;
}

export function rsyncPlan(command: EffectiveCommand): RsyncPlan | null {
  if (command.name !== "rsync") return null;
  const parsed = parseOptions(command.args, { shortWithValue: RSYNC_VALUES });
  const deletesInDestination = parsed.long.some((n) => n === "del" || n.startsWith("delete"));
  const removesSources = parsed.long.includes("remove-source-files");
  const last = parsed.operands.at(-1);
  const target = last ? staticText(last) : null;
  const remote = target !== null && /^[^/]*:/.test(target);
  return { sources: parsed.operands.slice(0, -1), destination: last && !remote ? last : null, deletesInDestination, removesSources };
}

/** `mv ~ /tmp/x` takes the home folder away as surely as deleting it. */
export function moveDenial(command: EffectiveCommand, places: ProtectedPlaces): string | null {
  if (command.name !== "mv") return null;
  const parsed = parseOptions(command.args, { shortWithValue: "tS", longWithValue: ["target-directory", "suffix", "backup"] });
  const intoDirectory = parsed.letters.includes("t") || parsed.long.some((n) => abbreviates(n, "target-directory", 3));
  const sources = intoDirectory ? parsed.operands : parsed.operands.slice(0, -1);
  // The workspace's own files may be moved around: only what holds the system or the home is protected.
  const hit = firstProtected(sources, { ...places, workspaceRoot: null });
  return hit === null ? null : `\`mv\` moves away ${hit}`;
}

/** `tar --remove-files -cf x.tar ~` deletes what it archives: the files it is given, or null when not that. */
export function tarRemovedFiles(command: EffectiveCommand): ShellArg[] | null {
  if (command.name !== "tar" || !command.args.some((a) => staticText(a) === "--remove-files")) return null;
  const files: ShellArg[] = [];
  for (let i = 0; i < command.args.length; i++) {
    const word = staticText(command.args[i] as ShellArg);
    // The archive (`-f x`, `--file x`, old-style `cf x`) and `-C dir` take the next word.
    const takesNext = word !== null && (/^(-[a-zA-Z]*[fC]|--file|--directory)$/.test(word) || (i === 0 && /^[a-zA-Z]*f[a-zA-Z]*$/.test(word)));
    if (takesNext) i++;
    else if (word === null || !word.startsWith("-")) files.push(command.args[i] as ShellArg);
  }
  return files;
}

export function tarDenial(command: EffectiveCommand, places: ProtectedPlaces): string | null {
  const files = tarRemovedFiles(command);
  const hit = files === null ? null : firstProtected(files, places);
  return hit === null ? null : `\`tar --remove-files\` deletes ${hit}`;
}
