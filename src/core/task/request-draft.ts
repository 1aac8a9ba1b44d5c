/**
 * The user content of the request about to go, as the participants build it before it joins the
 * history: the round's results first, then what each participant adds, in the assembly's order
 * (the environment details last). A block may replace an older block of its kind in the message
 * it merges into (a resumed request that got no answer keeps one set of environment details).
 */
import type { ContentBlock } from "../../api/types";

export class RequestDraft {
  private readonly blocks: ContentBlock[];
  private readonly replaced: ((block: ContentBlock) => boolean)[] = [];

  constructor(
    results: readonly ContentBlock[],
    /** Whether the previous round used no tool (the content is the reminder to use one). */
    readonly afterNoTool: boolean,
  ) {
    this.blocks = [...results];
  }

  /** Everything the request carries so far. */
  get content(): readonly ContentBlock[] {
    return this.blocks;
  }

  /** A text note (or a block) after what is there; `replaces` marks older blocks of the same kind this one supersedes. */
  add(block: string | ContentBlock, options: { replaces?: (block: ContentBlock) => boolean } = {}): void {
    this.blocks.push(typeof block === "string" ? { type: "text", text: block } : block);
    if (options.replaces) this.replaced.push(options.replaces);
  }

  /** Whether an older block in the merged message is superseded by one of this request's. */
  supersedes(block: ContentBlock): boolean {
    return this.replaced.some((replaces) => replaces(block));
  }
}
