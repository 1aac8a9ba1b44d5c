/** Deny rules for writing to disks: formatting, wiping, `dd of=`, redirections onto block devices. */
import * as path from "node:path";
import type { EffectiveCommand } from "./effective-command";
import { parseOptions } from "./options";
import { expandArg, staticText, type PathEnv } from "./resolve-words";
import type { Redirection, ShellArg } from "./shell-script";

// Disks, partitions and raw memory: /dev/null, /dev/tty, serial ports etc. are not matched.
const DISK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|r?disk\d|md\d|dm-\d|loop\d|sr\d|mapper\/|disk\/|mem$|kmem$|port$)/;
const FORMATTERS = new Set(["mke2fs", "mkswap", "wipefs", "blkdiscard"]);
export const WRITE_OPERATORS = new Set([">", ">>", ">|", "&>", "&>>", "<>", ">&"]);

export function deviceCommandDenial(command: EffectiveCommand, env: PathEnv): string | null {
  const { name } = command;
  if (name.startsWith("mkfs") || FORMATTERS.has(name)) return `\`${name}\` formats or wipes a disk`;
  if (name === "dd") {
    const output = command.args.map((a) => staticText(a)).find((t) => t?.startsWith("of="));
    const device = output ? diskDevice({ raw: output, parts: [{ kind: "text", value: output.slice(3), quoted: true }] }, env) : null;
    return device ? `\`dd\` writes to the disk ${device}` : null;
  }
  if (name === "shred" || name === "tee" || name === "cp") {
    const operands = parseOptions(command.args, { shortWithValue: name === "shred" ? "nsS" : "tS" }).operands;
    const targets = name === "cp" ? operands.slice(-1) : operands;
    const device = targets.map((t) => diskDevice(t, env)).find((d) => d !== null);
    return device ? `\`${name}\` writes to the disk ${device}` : null;
  }
  return null;
}

export function redirectionDenial(redirection: Redirection, env: PathEnv): string | null {
  if (!WRITE_OPERATORS.has(redirection.op)) return null;
  const device = diskDevice(redirection.target, env);
  return device ? `a redirection writes to the disk ${device}` : null;
}

function diskDevice(arg: ShellArg, env: PathEnv): string | null {
  const value = expandArg(arg, env, "known");
  if (value === null) return null;
  const absolute = value.startsWith("/") ? path.posix.normalize(value) : env.cwd ? path.posix.join(env.cwd, value) : null;
  return absolute !== null && DISK_DEVICE.test(absolute) ? absolute : null;
}
