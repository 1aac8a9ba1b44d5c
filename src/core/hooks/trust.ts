/**
 * Whether a workspace's hooks may run. They are code a repository ships, so, as with its MCP
 * servers, the person trusts them once per folder; the host asks and remembers (the editor in
 * workspace state, the CLI by `--trust-workspace`). What is trusted is a fingerprint of the
 * hooks' real paths and contents: a hook added, changed or removed is a new question (so one the
 * model rewrote does not run on the old answer). Global hooks are the person's own and need no trust.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { findHooks, hookFolders, type HookFile } from "./discovery";
import type { HookPoint } from "./hook-points";
import { TrustDecisions } from "../util/trust-decisions";

export interface HookTrustRequest {
  /** The workspace folder whose hooks these are. */
  readonly folder: string;
  readonly hooks: readonly { readonly point: HookPoint; readonly path: string }[];
  /** Changes with any hook's path or content. */
  readonly fingerprint: string;
}

/** The host's question (and memory); a rejection or a throw counts as "not trusted". */
export type TrustWorkspaceHooks = (request: HookTrustRequest) => boolean | Promise<boolean>;

export class HookTrust {
  /** Decisions by fingerprint, for the Controller's life (the host remembers across sessions). */
  private readonly decisions: TrustDecisions<HookTrustRequest> | undefined;
  /** Contents' hashes by real path, read again only when the file's stat changes. */
  private readonly hashes = new Map<string, { stamp: string; hash: string }>();

  constructor(ask: TrustWorkspaceHooks | undefined) {
    this.decisions = ask ? new TrustDecisions(ask) : undefined;
  }

  /** Whether the hooks of `folder` may run; asks the host at most once per fingerprint. */
  async trusted(folder: string, hooks: readonly HookFile[]): Promise<boolean> {
    if (!this.decisions || hooks.length === 0) return false;
    return this.decisions.decide({ folder, hooks: hooks.map((h) => ({ point: h.point, path: h.path })), fingerprint: await this.fingerprint(hooks) });
  }

  /** The person asked to be asked again (after saying no). */
  forget(): void {
    this.decisions?.forget();
  }

  private fingerprint(hooks: readonly HookFile[]): Promise<string> {
    return hooksFingerprint(hooks, (file) => this.contentHash(file));
  }

  private async contentHash(file: string): Promise<string> {
    const info = await stat(file);
    const stamp = `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
    const known = this.hashes.get(file);
    if (known?.stamp === stamp) return known.hash;
    const hash = createHash("sha256").update(await readFile(file)).digest("hex");
    this.hashes.set(file, { stamp, hash });
    return hash;
  }
}

/** What trust is given to: every hook's point, path, real path and content. */
async function hooksFingerprint(hooks: readonly HookFile[], contentHash: (file: string) => Promise<string>): Promise<string> {
  const parts: string[] = [];
  for (const hook of hooks) parts.push(`${hook.point}\0${hook.path}\0${hook.realPath}\0${await contentHash(hook.realPath)}`);
  return createHash("sha256").update(parts.join("\n")).digest("hex");
}

/**
 * Trust given up front (the CLI's `--trust-workspace`): to each folder's hooks as they are now.
 * A hook added, changed or removed later (by the model, say) is another fingerprint, not trusted.
 */
export async function trustHooksAsFound(roots: readonly string[]): Promise<TrustWorkspaceHooks> {
  const { hooks } = await findHooks(hookFolders(undefined, roots));
  const hash = async (file: string) => createHash("sha256").update(await readFile(file)).digest("hex");
  const trusted = new Map<string, string>();
  for (const root of roots) {
    const ofRoot = hooks.filter((h) => h.root === root);
    if (ofRoot.length > 0) trusted.set(root, await hooksFingerprint(ofRoot, hash));
  }
  return (request) => trusted.get(request.folder) === request.fingerprint;
}
