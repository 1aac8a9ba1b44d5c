/** Reading command-line options the way getopt does, for the few commands the policy inspects. */
import { staticText } from "./resolve-words";
import type { ShellArg } from "./shell-script";

export interface OptionSpec {
  /** Short options that take a value (`u` for `-u root`). */
  readonly shortWithValue?: string;
  /** Long options that take a value when written without `=` (`user` for `--user root`). */
  readonly longWithValue?: readonly string[];
}

export interface ParsedOptions {
  /** Every option as written (`-rf`, `--recursive`, `--user=root`); clusters are not split. */
  readonly options: string[];
  /** Short option letters, clusters split (`-rf` gives `r`, `f`). */
  readonly letters: string;
  /** Long option names without dashes or value (`--user=root` gives `user`). */
  readonly long: string[];
  /** Operands, in order; after `--` everything is an operand. */
  readonly operands: ShellArg[];
  /** Arguments whose text is not known (`$X`): they may hide any option. */
  readonly dynamic: number;
}

/** Parses options anywhere on the line (GNU style), as `rm / -rf` is read by GNU rm. */
export function parseOptions(args: readonly ShellArg[], spec: OptionSpec = {}): ParsedOptions {
  const result = { options: [] as string[], long: [] as string[], operands: [] as ShellArg[], dynamic: 0 };
  let letters = "";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ShellArg;
    const value = staticText(arg);
    if (value === null) {
      result.dynamic++;
      result.operands.push(arg);
    } else if (value === "--") {
      result.operands.push(...args.slice(i + 1));
      break;
    } else if (value.startsWith("--")) {
      result.options.push(value);
      const name = value.slice(2).split("=")[0] ?? "";
      result.long.push(name);
      if (!value.includes("=") && spec.longWithValue?.includes(name)) i++;
    } else if (value.startsWith("-") && value.length > 1) {
      result.options.push(value);
      const cluster = shortCluster(value, spec.shortWithValue ?? "");
      letters += cluster.letters;
      if (cluster.valueInNextArg) i++;
    } else {
      result.operands.push(arg);
    }
  }
  return { ...result, letters };
}

/** The option letters of `-abc`; a letter that takes a value ends the cluster. */
export function shortCluster(option: string, withValue: string): { letters: string; valueInNextArg: boolean } {
  let letters = "";
  for (let i = 1; i < option.length; i++) {
    const letter = option[i] as string;
    letters += letter;
    if (withValue.includes(letter)) return { letters, valueInNextArg: i === option.length - 1 };
  }
  return { letters, valueInNextArg: false };
}

/** True when `name` is an unambiguous abbreviation of `full` that getopt_long would accept. */
export function abbreviates(name: string, full: string, minLength = 1): boolean {
  return name.length >= minLength && full.startsWith(name);
}
