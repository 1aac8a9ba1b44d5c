/**
 * Expands the @-mentions of what the person typed (the task, and every reply or feedback) into
 * delimited blocks that follow their text; the text itself stays as typed, in the chat and in the
 * request. What each kind of mention reads is in its own file (mention-files, mention-editor,
 * mention-git); a URL goes through the web_fetch tool itself, so it asks the same approval under
 * the same auto-approval switch, and a refusal leaves a note instead of the page. A mention that
 * cannot be resolved becomes a note saying why, and the message still goes.
 */
import type { HostBridge } from "../../host/bridge";
import type { PathGuard } from "../ignore/path-guard";
import { errorText } from "../util/error-text";
import { mentionBlock } from "./mention-block";
import { commitBlock, gitChangesBlock, type GitMentionDeps } from "./mention-git";
import { problemsBlock, terminalBlock } from "./mention-editor";
import { notIncluded, pathMentionBlock } from "./mention-files";
import { parseMentions, type Mention } from "../../shared/mention-syntax";
import type { WorkspaceRoots } from "../util/workspace-roots";

/** All of one message's mentions together stay under this; later ones become a note. */
export const MENTIONS_LIMIT_BYTES = 512 * 1024;

export interface MentionDeps {
  readonly roots: WorkspaceRoots;
  readonly guard: PathGuard;
  readonly host: HostBridge;
  readonly signal: AbortSignal;
  /** Runs web_fetch for a URL through every step a model's call takes (its approval included). */
  fetchUrl(url: string): Promise<FetchedUrl>;
}

/** What fetching a mentioned page came to: its text, the person declining (with what they said), or nothing fetched. */
export type FetchedUrl = { readonly kind: "ok"; readonly text: string } | { readonly kind: "declined"; readonly said?: string } | { readonly kind: "not_fetched" };

export class MentionExpander {
  constructor(private readonly deps: MentionDeps) {}

  /** One block per mention in `text`, in order; none when it mentions nothing. Never rejects. */
  async blocks(text: string | undefined): Promise<string[]> {
    const blocks: string[] = [];
    let bytes = 0;
    for (const mention of parseMentions(text ?? "")) {
      if (this.deps.signal.aborted) break;
      let block: string;
      if (bytes >= MENTIONS_LIMIT_BYTES) {
        block = mentionBlock("mention", { name: mention.typed }, notIncluded(`the mentions before it already add ${Math.round(bytes / 1024)} KB to this message.`));
      } else {
        block = await this.expandOne(mention);
      }
      bytes += Buffer.byteLength(block);
      blocks.push(block);
    }
    return blocks;
  }

  /** `text` as typed, followed by its mentions' blocks. */
  async withMentions(text: string | undefined): Promise<string | undefined> {
    const blocks = await this.blocks(text);
    return blocks.length === 0 ? text : [text ?? "", ...blocks].join("\n\n");
  }

  private async expandOne(mention: Mention): Promise<string> {
    try {
      return await this.read(mention);
    } catch (error) {
      // Never thrown on: the message goes with a note (a cancelled task then ends as the loop sees it).
      const reason = this.deps.signal.aborted ? "the task was cancelled while it was read." : errorText(error);
      return mentionBlock("mention", { name: mention.typed }, notIncluded(reason));
    }
  }

  private read(mention: Mention): Promise<string> | string {
    const { deps } = this;
    switch (mention.kind) {
      case "file":
      case "folder":
        return pathMentionBlock(mention.path, deps);
      case "problems":
        return problemsBlock(deps.host, deps.roots, deps.guard);
      case "terminal":
        return terminalBlock(deps.host);
      case "git-changes":
        return gitChangesBlock(this.gitDeps());
      case "commit":
        return commitBlock(mention.hash, this.gitDeps());
      case "url":
        return this.fetch(mention.url);
    }
  }

  /** Git's mentions read the primary folder's repository. */
  private gitDeps(): GitMentionDeps {
    return { cwd: this.deps.roots.primary.path, guard: this.deps.guard, signal: this.deps.signal };
  }

  private async fetch(url: string): Promise<string> {
    let fetched: FetchedUrl;
    try {
      fetched = await this.deps.fetchUrl(url);
    } catch (error) {
      if (this.deps.signal.aborted) throw error;
      return mentionBlock("url_content", { url }, notIncluded(`the page was not fetched: ${errorText(error)}`));
    }
    if (fetched.kind === "declined") {
      const said = fetched.said ? ` They said: ${fetched.said}` : "";
      return mentionBlock("url_content", { url }, notIncluded(`the person declined to fetch it, so the page was not fetched.${said}`));
    }
    if (fetched.kind !== "ok") return mentionBlock("url_content", { url }, notIncluded("the page was not fetched."));
    return mentionBlock("url_content", { url }, fetched.text);
  }
}
