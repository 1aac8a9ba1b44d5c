/** Every case of the security corpus, by class (see `types.ts`). */
import { CONTROL_CASES } from "./cases-controls";
import { GUARD_FILE_CASES } from "./cases-guard-files";
import { LINK_CASES } from "./cases-links";
import { OUTSIDE_READ_CASES } from "./cases-outside-reads";
import { REWRITE_CASES } from "./cases-rewrites";
import { ROOT_CASES } from "./cases-roots";
import { SHELL_CASES } from "./cases-shell";
import type { SecurityCase } from "./types";

export const CORPUS: readonly SecurityCase[] = [...LINK_CASES, ...GUARD_FILE_CASES, ...OUTSIDE_READ_CASES, ...SHELL_CASES, ...REWRITE_CASES, ...ROOT_CASES, ...CONTROL_CASES];

const seen = new Set<string>();
for (const c of CORPUS) {
  if (seen.has(c.id)) throw new Error(`two security cases are called ${c.id}`);
  seen.add(c.id);
}
