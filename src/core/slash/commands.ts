/**
 * The slash commands known now — the built-ins, then the workflows — for the panel's menu, and
 * what a message that starts with one becomes for the model. A command nobody knows (a typo, a
 * path) is not swallowed: the message goes as typed.
 */
import type { SlashCommandView } from "../../shared/protocol";
import { errorText } from "../util/error-text";
import { BUILTIN_COMMANDS, builtinCommand } from "./builtins";
import { parseSlashCommand } from "./parse";
import { findWorkflows, readWorkflow, type WorkflowSources } from "./workflows";
import { expandPrompt, promptCommands, type PromptServers } from "./mcp-prompts";
import type { ExpandedCommand } from "./parse";


export class SlashCommands {
  constructor(
    private readonly sources: WorkflowSources,
    /** The MCP servers whose prompts are commands too; none: no MCP prompts. */
    private readonly mcp?: PromptServers,
  ) {}

  /** Built-ins, then workflows, then MCP prompts, in the menu's order. */
  async list(): Promise<SlashCommandView[]> {
    const builtins = BUILTIN_COMMANDS.map((c): SlashCommandView => ({ name: c.name, description: c.description, kind: "builtin" }));
    const workflows = (await findWorkflows(this.sources)).map((w): SlashCommandView => ({ name: w.name, description: w.label, kind: "workflow" }));
    // A workflow cannot take a built-in's name.
    const prompts = promptCommands(this.mcp).map((p): SlashCommandView => ({ name: p.name, description: p.prompt.description ?? `${p.server}'s prompt`, kind: "mcp" }));
    return [...builtins, ...workflows.filter((w) => !builtinCommand(w.name)), ...prompts];
  }

  /** True when the message is `/compact` alone (it acts rather than tells). */
  static isCompact(text: string | undefined): boolean {
    return text?.trim().toLowerCase() === "/compact";
  }

  /** The message with its leading command expanded; none when it starts with no command this knows. Never rejects. */
  async expand(text: string, signal?: AbortSignal): Promise<ExpandedCommand | undefined> {
    const typed = parseSlashCommand(text);
    if (!typed) return undefined;
    const builtin = builtinCommand(typed.name);
    if (builtin) return builtin.instructions === undefined ? undefined : { text: joined(block("explicit_instructions", `type="${builtin.name}"`, builtin.instructions), typed.rest) };
    const prompt = this.mcp && promptCommands(this.mcp).find((p) => p.name === typed.name);
    if (prompt) return expandPrompt(this.mcp!, prompt, typed.rest, text, signal);
    const workflow = (await findWorkflows(this.sources).catch(() => [])).find((w) => w.name === typed.name);
    if (!workflow) return undefined;
    try {
      const body = await readWorkflow(workflow, this.sources.guard);
      return { text: joined(block("workflow", `name="${workflow.name}"`, body.trim()), typed.rest) };
    } catch (error) {
      return { text, note: `The workflow /${workflow.name} could not be used (${errorText(error)}), so the message went as typed.` };
    }
  }
}

function block(tag: string, attributes: string, body: string): string {
  return `<${tag} ${attributes}>\n${body}\n</${tag}>`;
}

function joined(commandBlock: string, rest: string): string {
  return rest.trim() === "" ? commandBlock : `${commandBlock}\n\n${rest}`;
}
