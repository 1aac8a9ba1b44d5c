/**
 * The sandbox library starts socat as this process's network bridge (one, outside the sandbox,
 * for every command's proxy traffic). It is a plain child: a Tandem killed with SIGKILL left it
 * running for ever, listening on a socket in the temp folder. The library runs whatever program
 * `socatPath` names, so Tandem names a two-line wrapper that has the kernel kill socat when its
 * parent dies (`setpriv --pdeathsig`, util-linux). Inside a sandboxed command the same wrapper
 * runs socat for the command's side of the bridge; its parent is the command's shell there.
 *
 * One per process, as the library is: its folder (named like the sandbox's process folders, so a
 * later Tandem removes it if this one is killed) goes when the process exits.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { whichSync } from "./program-lookup";
import { shellQuote } from "./shell-quote";

let wrapper: { readonly file: string | undefined } | undefined;

/** The wrapper's path, written on first use; undefined without socat or setpriv (the library then finds socat itself). */
export function socatDyingWithParent(folderPrefix: string): string | undefined {
  wrapper ??= { file: writeWrapper(folderPrefix) };
  return wrapper.file;
}

function writeWrapper(folderPrefix: string): string | undefined {
  const socat = whichSync("socat");
  const setpriv = whichSync("setpriv");
  if (!socat || !setpriv) return undefined;
  const folder = mkdtempSync(path.join(tmpdir(), folderPrefix));
  process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
  const file = path.join(folder, "socat");
  writeFileSync(file, `#!/bin/sh\nexec ${shellQuote(setpriv)} --pdeathsig KILL -- ${shellQuote(socat)} "$@"\n`, { mode: 0o755 });
  return file;
}
