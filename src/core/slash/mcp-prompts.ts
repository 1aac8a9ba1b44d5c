/**
 * MCP servers' prompts as slash commands: `/mcp:<server>:<prompt>` for each prompt a connected
 * server lists. Sent, the prompt is fetched with getPrompt and its messages' text goes to the
 * model like a workflow's. What the person typed after the command is the prompt's first
 * argument when it takes any (a prompt that requires more cannot be filled from one line: the
 * person is told, and the message goes as typed); otherwise it follows the prompt's text.
 */
import type { McpServerSnapshot } from "../mcp";
import type { McpServers } from "../mcp/servers";
import { errorText } from "../util/error-text";
import { COMMAND_NAME, type ExpandedCommand } from "./parse";

export type PromptServers = Pick<McpServers, "servers" | "getPrompt">;

interface PromptCommand {
  readonly name: string;
  readonly server: string;
  readonly prompt: McpServerSnapshot["prompts"][number];
}

/** The connected servers' prompts, in the hub's order, each under a name that can be typed. */
export function promptCommands(mcp: PromptServers | undefined): PromptCommand[] {
  const out: PromptCommand[] = [];
  for (const server of mcp?.servers() ?? []) {
    if (server.state !== "connected") continue;
    for (const prompt of server.prompts) {
      const name = `mcp:${server.name}:${prompt.name}`;
      if (COMMAND_NAME.test(name)) out.push({ name, server: server.name, prompt });
    }
  }
  return out;
}

export async function expandPrompt(mcp: PromptServers, command: PromptCommand, rest: string, text: string, signal?: AbortSignal): Promise<ExpandedCommand> {
  const [first, ...others] = command.prompt.arguments;
  const missing = others.filter((a) => a.required).map((a) => a.name);
  const given = rest.trim();
  if (missing.length > 0 || (first?.required && given === "")) {
    const needed = [first?.required ? first.name : undefined, ...missing].filter(Boolean).join(", ");
    return { text, note: `The MCP prompt /${command.name} needs the argument(s) ${needed}; only one can be typed after the command (as its first), so the message went as typed.` };
  }
  const args: Record<string, string> = first && given ? { [first.name]: given } : {};
  try {
    const body = await mcp.getPrompt(command.server, command.prompt.name, args, { signal });
    const block = `<mcp_prompt server="${command.server}" name="${command.prompt.name}">\n${body.trim()}\n</mcp_prompt>`;
    return { text: first || given === "" ? block : `${block}\n\n${rest}` };
  } catch (error) {
    return { text, note: `The MCP prompt /${command.name} could not be fetched (${errorText(error)}), so the message went as typed.` };
  }
}
