/**
 * Whether a workspace's hooks may run. They are code a repository ships, so, as with its MCP
 * servers, the person trusts them once per folder; the host asks and remembers (the editor in
 * workspace state, the CLI by `--trust-workspace`). What is trusted is a fingerprint of the
 * hooks' real paths and contents: a hook added, changed or removed is a new question. Global
 * hooks are the person's own and need no trust.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { HookFile } from "./discovery";
import type { HookPoint } from "./hook-points";

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
  private readonly decided = new Map<string, Promise<boolean>>();
  /** Contents' hashes by real path, read again only when the file's stat changes. */
  private readonly hashes = new Map<string, { stamp: string; hash: string }>();

  constructor(private readonly ask: TrustWorkspaceHooks | undefined) {}

  /** Whether the hooks of `folder` may run; asks the host at most once per fingerprint. */
  async trusted(folder: string, hooks: readonly HookFile[]): Promise<boolean> {
    if (!this.ask || hooks.length === 0) return false;
    const request: HookTrustRequest = { folder, hooks: hooks.map((h) => ({ point: h.point, path: h.path })), fingerprint: await this.fingerprint(hooks) };
    let decision = this.decided.get(request.fingerprint);
    if (!decision) {
      const ask = this.ask;
      decision = Promise.resolve()
        .then(() => ask(request))
        .then((answer) => answer === true, () => false);
      this.decided.set(request.fingerprint, decision);
    }
    return decision;
  }

  /** The person asked to be asked again (after saying no). */
  forget(): void {
    this.decided.clear();
  }

  private async fingerprint(hooks: readonly HookFile[]): Promise<string> {
    const parts: string[] = [];
    for (const hook of hooks) parts.push(`${hook.point}\0${hook.path}\0${hook.realPath}\0${await this.contentHash(hook.realPath)}`);
    return createHash("sha256").update(parts.join("\n")).digest("hex");
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
