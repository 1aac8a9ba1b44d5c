/**
 * The one owner of the name of Tandem's temp files, so the writers (`atomic-write.ts`,
 * `journal.ts`) and the cleanup after a crash (`leftover-temp-files.ts`) agree on it exactly.
 * A temp file sits beside its target as `.<name>.tandem-<pid>-<8 hex>.tmp`: the pid tells a later
 * start whether the writer can still be alive. Older versions wrote `.<name>.<12 hex>.tmp`.
 */
import { randomBytes } from "node:crypto";
import * as path from "node:path";

const CURRENT = /^\..+\.tandem-(\d+)-[0-9a-f]{8}\.tmp$/;
const OLDER = /^\..+\.[0-9a-f]{12}\.tmp$/;

export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.tandem-${process.pid}-${randomBytes(4).toString("hex")}.tmp`);
}

/**
 * Whether a file name is one of Tandem's temp files; `writerPid` is the process that made it
 * (undefined for an older version's name, which did not record it).
 */
export function parseTempName(name: string): { writerPid: number | undefined } | undefined {
  const current = CURRENT.exec(name);
  if (current) return { writerPid: Number(current[1]) };
  return OLDER.test(name) ? { writerPid: undefined } : undefined;
}
