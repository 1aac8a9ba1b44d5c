/**
 * What a request sends besides the conversation, built just before it (the seed's
 * attemptApiRequest): the system prompt — the base from the tools the participants offer in the
 * mode, then their sections — and, in native mode, the tool specs. The prompt text is kept while
 * nothing it says changed, so consecutive requests send the very same string.
 */
import type { ToolSpec } from "../../api/types";
import { buildSystemPrompt, type PromptFacts } from "./system-prompt";
import type { TaskScope } from "./task-scope";
import { toolSpecs, type ToolSet } from "./tools/registry";

export interface RequestParts {
  readonly systemPrompt: string;
  /** Native mode only. */
  readonly tools?: readonly ToolSpec[];
}

export class RequestPartsBuilder {
  private cached: { key: string; text: string } | undefined;

  constructor(
    private readonly scope: TaskScope,
    private readonly tools: ToolSet,
    private readonly facts: PromptFacts,
  ) {}

  /** The names of the tools offered in the mode now (the participants' offer). */
  offeredNames(): string[] {
    return Object.keys(this.scope.participants.offeredTools(this.tools, this.scope.mode.current));
  }

  async build(): Promise<RequestParts> {
    const { participants } = this.scope;
    const mode = this.scope.mode.current;
    const toolCallMode = this.scope.settings().toolCallMode;
    // The sections first: the MCP participant waits there for servers still connecting, whose tools the offer then holds.
    const sections = await participants.systemPrompt({ mode, toolCallMode });
    const offered = participants.offeredTools(this.tools, mode);
    const key = JSON.stringify([toolCallMode, Object.keys(offered), sections]);
    if (this.cached?.key !== key) this.cached = { key, text: buildSystemPrompt({ ...this.facts, tools: offered, toolCallMode, sections }) };
    if (toolCallMode !== "native") return { systemPrompt: this.cached.text };
    return { systemPrompt: this.cached.text, tools: participants.toolSpecs(toolSpecs(offered)) };
  }
}
