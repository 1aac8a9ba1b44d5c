/**
 * The user content of the request about to go, as the participants build it before it joins the
 * history: the round's results first, then what each participant adds, in the assembly's order
 * (the environment details last). A block may replace an older block of its kind in the message
 * it merges into (a resumed request that got no answer keeps one set of environment details).
 */
import type { ContentBlock, ImageBlock, TextBlock } from "../../api/types";

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

  /** Every text the request carries (results inside tool_result blocks too) passed through `rewrite`: what must not reach the model taken out. */
  rewriteText(rewrite: (text: string) => string): void {
    const text = (block: TextBlock | ImageBlock): TextBlock | ImageBlock => (block.type === "text" ? { ...block, text: rewrite(block.text) } : block);
    for (let i = 0; i < this.blocks.length; i++) {
      const block = this.blocks[i] as ContentBlock;
      if (block.type === "text") this.blocks[i] = text(block);
      else if (block.type === "tool_result") this.blocks[i] = { ...block, content: typeof block.content === "string" ? rewrite(block.content) : block.content.map(text) };
    }
  }

  /** Whether an older block in the merged message is superseded by one of this request's. */
  supersedes(block: ContentBlock): boolean {
    return this.replaced.some((replaces) => replaces(block));
  }
}
