/** Deny rules for recursive deletes and recursive permission changes of protected folders. */
import type { EffectiveCommand } from "./effective-command";
import { abbreviates, parseOptions } from "./options";
import { protectedTarget, type ProtectedPlaces } from "./protected-paths";
import { expandArg } from "./resolve-words";
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

function firstProtected(operands: readonly ShellArg[], places: ProtectedPlaces): string | null {
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
