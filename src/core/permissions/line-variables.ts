/**
 * Variables assigned earlier on the same line, so `x=rm; $x -rf ~` and `D=~; rm -rf $D` are read
 * as the shell will run them. Only what is certain counts: a value assigned in a branch, a loop or
 * a function body, or by `read`/`eval`, becomes unknown, never a guess.
 */
import { assignmentNames } from "./assigned-names";
import type { ShellArg, WordPart } from "./shell-script";

/** Values by name; null when the line assigns the name but its value cannot be known. */
export type LineVars = Map<string, ShellArg | null>;

/** Commands after which the named variables (their operands) hold something unknown. */
const READS_INTO_VARIABLES = new Set(["read", "mapfile", "readarray", "getopts"]);
/** Commands that can assign any variable of this shell. */
const RUNS_CODE_HERE = new Set(["eval", "source", "."]);

/** `args` with the line's known variables substituted; an unquoted value splits into words as Bash does. */
export function substituteVars(args: readonly ShellArg[], vars: LineVars): ShellArg[] {
  if (vars.size === 0) return [...args];
  return args.flatMap((arg) => substituteArg(arg, vars));
}

function substituteArg(arg: ShellArg, vars: LineVars): ShellArg[] {
  if (!arg.parts.some((p) => p.kind === "param" && vars.has(p.name))) return [arg];
  const fields: WordPart[][] = [[]];
  const current = () => fields[fields.length - 1] as WordPart[];
  for (const part of arg.parts) {
    const value = part.kind === "param" && vars.has(part.name) ? vars.get(part.name) : undefined;
    if (value === undefined || part.kind !== "param") {
      current().push(part);
    } else if (value === null || !part.plain || (!part.quoted && vars.has("IFS"))) {
      // With IFS set on the line, an unquoted value splits where that IFS says: not guessed.
      current().push({ kind: "dynamic" });
    } else if (part.quoted || value.parts.some((p) => p.kind !== "text")) {
      current().push(...value.parts);
    } else {
      const pieces = value.parts.map((p) => (p.kind === "text" ? p.value : "")).join("").split(/[ \t\n]+/);
      pieces.forEach((piece, i) => {
        if (i > 0) fields.push([]);
        if (piece !== "") current().push({ kind: "text", value: piece, quoted: true });
      });
    }
  }
  return fields.filter((parts) => parts.length > 0).map((parts) => ({ raw: arg.raw, parts }));
}

/**
 * The value an assignment stores: variables substituted, a leading `~` expanded (as Bash does in
 * assignments), and its text quoted, because an expanded value is never tilde-expanded again.
 */
export function assignedValue(value: ShellArg, vars: LineVars): ShellArg {
  const parts: WordPart[] = [];
  value.parts.forEach((part, i) => {
    if (part.kind === "text" && i === 0 && !part.quoted && /^~(\/|$)/.test(part.value)) {
      parts.push({ kind: "param", name: "HOME", plain: true, quoted: true });
      if (part.value.length > 1) parts.push({ kind: "text", value: part.value.slice(1), quoted: true });
    } else if (part.kind === "text" && i === 0 && !part.quoted && part.value.startsWith("~")) {
      parts.push({ kind: "dynamic" }); // `~user`: someone's home, unknown here
    } else if (part.kind === "text") {
      parts.push({ ...part, quoted: true });
    } else if (part.kind === "param" && vars.has(part.name)) {
      const known = vars.get(part.name);
      parts.push(...(known && part.plain ? known.parts : [{ kind: "dynamic" } as const]));
    } else {
      parts.push(part);
    }
  });
  return { raw: value.raw, parts };
}

/** After a command ran: `read x` makes x unknown, `eval …` every variable, `unset x` forgets x. */
export function afterCommand(words: readonly (string | null)[], vars: LineVars): void {
  const [name, ...rest] = words;
  if (name === null || name === undefined) return;
  if (RUNS_CODE_HERE.has(name)) {
    forgetAll(vars);
  } else if (READS_INTO_VARIABLES.has(name) || (name === "printf" && rest[0] === "-v")) {
    if (rest.some((w) => w === null)) forgetAll(vars);
    for (const word of rest) if (word !== null && /^[A-Za-z_]\w*$/.test(word)) vars.set(word, null);
  } else if (name === "unset") {
    for (const word of rest) if (word !== null) vars.delete(word);
  }
}

/** Before a loop or a function body: what it assigns may hold either value, so it is unknown. */
export function forgetAssignedIn(node: Parameters<typeof assignmentNames>[0], vars: LineVars): void {
  const assigned = assignmentNames(node);
  if (assigned.any) forgetAll(vars);
  for (const name of assigned.names) vars.set(name, null);
}

export function forgetAll(vars: LineVars): void {
  for (const name of vars.keys()) vars.set(name, null);
}
