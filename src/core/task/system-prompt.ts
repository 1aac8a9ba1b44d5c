/**
 * The base of the system prompt: who the model is, the tools it is offered (their descriptions
 * come from the registry, so the prompt lists exactly the tools the parser accepts), how to work,
 * the rules and the environment. The participants add their sections after it (the focus chain,
 * the MCP servers, the mode, the person's rules and instructions). Kept lean on purpose: every
 * token is paid per request.
 */
import type { WorkspaceRoot } from "../../host/bridge";
import { oneLineName } from "../util/one-line-name";
import type { ToolDefinition } from "./tools/types";
import type { ToolSet } from "./tools/registry";
import type { ToolCallMode } from "../prompts/responses";

/** What the base prompt says of the machine: fixed for the task. */
export interface PromptFacts {
  /** The primary workspace folder: commands start there, a plain relative path is in it. */
  readonly cwd: string;
  /** The workspace's other folders, when it has several. */
  readonly otherRoots?: readonly WorkspaceRoot[];
  /** e.g. "Linux 6.8", "macOS 15.1", "Windows 11". */
  readonly os: string;
  /** e.g. "/bin/bash". */
  readonly shell: string;
  /** Commands run inside the OS sandbox: what it lets them reach. */
  readonly sandbox?: { readonly network: string };
}

export interface SystemPromptOptions extends PromptFacts {
  readonly tools: ToolSet;
  readonly toolCallMode: ToolCallMode;
  /** The participants' sections, in order, after the base. */
  readonly sections?: readonly string[];
}

const SEPARATOR = "\n\n====\n\n";

export function buildSystemPrompt(options: SystemPromptOptions): string {
  const tools = Object.values(options.tools);
  const sections = [roleSection(), toolUseSection(tools, options.toolCallMode), rulesSection(tools), environmentSection(options), ...(options.sections ?? [])];
  return sections.filter((section) => section.trim() !== "").join(SEPARATOR);
}

function roleSection(): string {
  return `You are Tandem, a careful software engineer working in the person's workspace. You have broad knowledge of programming languages, frameworks, tools and good practice.

You work through the task one step at a time: use a tool, read its result, then decide the next step. Each step builds on what the previous one actually showed, not on what you expected.`;
}

function toolUseSection(tools: readonly ToolDefinition[], mode: ToolCallMode): string {
  const intro = `TOOL USE

You have tools that act in the workspace; some run only after the person approves them. Use exactly one tool per message. The tool's result comes back in the next message: wait for it before going on, and never assume a tool succeeded.`;
  if (mode === "native") {
    return `${intro}

Call tools through the function-calling interface; their descriptions and parameters come with it. Available tools: ${tools.map((t) => t.name).join(", ")}.`;
  }
  return [intro, xmlFormat(tools), `# Tools\n\n${tools.map(describeTool).join("\n\n")}`].join("\n\n");
}

function xmlFormat(tools: readonly ToolDefinition[]): string {
  const sample = tools.find((t) => t.example !== undefined);
  const worked = sample ? `\n\nA whole message, for example:\n\nFirst I'll look at how this is done today.\n\n${sample.example}` : "";
  return `# Tool call format

Write a tool call as XML at the end of your message, after any explanation: the tool name is the outer tag and each parameter is an inner tag.

<tool_name>
<parameter1_name>value1</parameter1_name>
<parameter2_name>value2</parameter2_name>
</tool_name>${worked}

Values are taken literally: don't escape them and don't wrap them in quotes or code fences. Nothing may follow the closing tag.`;
}

function describeTool(tool: ToolDefinition): string {
  const params = tool.params.map((p) => `- ${p.name} (${p.required ? "required" : "optional"}): ${p.description}`);
  return [
    `## ${tool.name}`,
    tool.description,
    params.length > 0 ? `Parameters:\n${params.join("\n")}` : "Parameters: none",
    `Example:\n${tool.example ?? skeletonExample(tool)}`,
  ].join("\n");
}

/** For a tool without a hand-written example: its required parameters with placeholder values. */
function skeletonExample(tool: ToolDefinition): string {
  const params = tool.params.filter((p) => p.required).map((p) => `<${p.name}>${p.name} here</${p.name}>`);
  return [`<${tool.name}>`, ...params, `</${tool.name}>`].join("\n");
}

function rulesSection(tools: readonly ToolDefinition[]): string {
  const has = (name: string) => tools.some((t) => t.name === name);
  const editRule = has("replace_in_file")
    ? "- Prefer replace_in_file for changes to an existing file: small, targeted edits are safer and cheaper than rewriting it."
    : "- write_to_file replaces the whole file, so give its complete content every time.";
  return `RULES

- Give every path relative to the working directory. It never changes: a \`cd\` inside a command lasts for that command only.
- Look at the files that matter before changing anything, and keep to the project's existing style, structure and conventions.
${editRule}
- Work in small steps and check each result. When a tool fails or the person denies it, read why and change your approach; don't repeat the same call.
- Gather what you need with your tools instead of asking. Use ask_followup_question only for what only the person can tell you.
- Be direct and technical. Don't open messages with filler such as "Great", "Certainly" or "Sure".
- Never end a message with a question or an offer to help further: ask with ask_followup_question, and once the task is done and every tool's result seen, finish with attempt_completion.`;
}

function environmentSection(options: PromptFacts): string {
  const others = options.otherRoots ?? [];
  const folders = others.length === 0
    ? ""
    : `\nOther workspace folders: write a path in one as its name followed by the path inside it (${others[0]?.name ?? "name"}/src/a.ts), or as an absolute path:\n${others.map((root) => `- ${root.name}: ${oneLineName(root.path)}`).join("\n")}`;
  const writable = others.length === 0 ? "the working directory" : "the workspace folders";
  const sandbox = options.sandbox
    ? `\nCommands run inside an OS sandbox: they may write only in ${writable} and $TMPDIR (a temp folder of this task) and package caches; credential stores and ignored files cannot be read; the network reaches ${options.sandbox.network}. Put temporary files under $TMPDIR, not /tmp. If a command fails because the sandbox blocked it, its result says so.`
    : "";
  return `ENVIRONMENT

Operating system: ${options.os}
Default shell: ${options.shell}
Working directory: ${options.cwd}${folders}${sandbox}

Each user message ends with an <environment_details> block that Tandem adds, not the person: the files open in the editor, the terminals' new output, the time, how full the context window is, and in the first message the workspace's files. It is context to use where it helps, not a request.`;
}
